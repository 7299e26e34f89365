/** Small formatting helpers of the zone pages. */
import type { Translate } from "../../services/platform/i18n.ts";
import { pricingMode } from "../../core/tariff.ts";
import type { Zone } from "../../core/zone.ts";

/** The configuration label: the pricing mode, plus Industrial when on. */
export function configurationText(t: Translate, zone: Zone): string {
  const mode = t(`zones.configuration.${pricingMode(zone)}`);
  return zone.industrial_tariff ? `${mode} + ${t("zones.configuration.industrial")}` : mode;
}

/** `November 1` style text of a month and day. */
export function monthDay(t: Translate, month: number, day: number): string {
  return `${t(`zones.months.m${String(month).padStart(2, "0")}`)} ${day}`;
}
