/**
 * The zone page's price versions (issue 17): every version with the day it applies from, the
 * one in force today, and its main prices; from the same store as the price history.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { VersionView } from "../../services/zones.ts";
import { buildTiers } from "../../core/tariff.ts";
import { configurationText } from "./format.ts";
import { formatterOf } from "../../core/format.ts";
import { ResponsiveList, StatusBadge } from "../kit/mod.ts";

/** The list of versions, newest first. */
export function VersionList(
  { t, versions, offsetMinutes }: { t: Translate; versions: VersionView[]; offsetMinutes: number },
) {
  const { price: money, date } = formatterOf(t, offsetMinutes);
  const V = (k: string) => t(`zones.zone_detail.versions.${k}`);
  const today = versions.find((v) => v.in_force);
  const state = (v: VersionView) =>
    v.in_force
      ? <StatusBadge tone="green">{V("in_force")}</StatusBadge>
      : (v.applies_from ?? "") > (today?.applies_from ?? "")
      ? <StatusBadge tone="blue">{V("scheduled")}</StatusBadge>
      : <StatusBadge tone="grey">{V("earlier")}</StatusBadge>;
  const prices = (v: VersionView) => {
    const z = v.zone;
    const season = z.seasonal_tariff ? "summer" : null;
    return buildTiers(z, season).map((tier) => money(tier.price, z.currency)).join(" · ");
  };
  return (
    <ResponsiveList
      label={V("title")}
      testId="zone-versions"
      framed={false}
      rows={[...versions].reverse()}
      rowKey={(v) => v.applies_from ?? "first"}
      rowAttrs={(v) => ({ "data-applies-from": v.applies_from ?? "first" })}
      columns={[
        {
          label: V("applies_from"),
          primary: true,
          cell: (v) => v.applies_from ?? V("first"),
        },
        { label: V("state"), aside: true, cell: state },
        { label: V("configuration"), cell: (v) => configurationText(t, v.zone) },
        { label: V("prices"), className: "nowrap", cell: prices },
        {
          label: V("base_tariff"),
          numeric: true,
          cell: (v) => money(v.zone.base_tariff, v.zone.currency),
        },
        { label: V("tax"), numeric: true, cell: (v) => `${v.zone.tax_percentage}%` },
        { label: V("recorded_at"), cell: (v) => date(v.recorded_at) },
      ]}
    />
  );
}
