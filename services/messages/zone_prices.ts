/**
 * The words of a zone's price notice: the zone, from when, and each per-kWh price of the price
 * history that changed, old and new, read from the zone's versions when the message is sent.
 */
import type { Formatter } from "../../core/format.ts";
import type { Translate } from "../platform/i18n.ts";
import { periodLabel } from "../../core/periods.ts";
import { getZone, zoneVersions } from "../../db/zones.ts";

/** The prices a tenant is told of (those of the zone's price history, with its labels). */
const SHOWN = [
  "price_low",
  "price_middle",
  "price_high",
  "price_surplus",
  "summer_price_low",
  "winter_price_low",
] as const;

/** The notice's values and link; null when the zone or its version is gone. */
export async function zonePricesWords(
  kv: Deno.Kv,
  params: Record<string, string | number>,
  t: Translate,
  f: Formatter,
): Promise<{ values: Record<string, string>; link: string } | null> {
  const id = Number(params.zone_id);
  const from = String(params.applies_from);
  const [zone, versions] = await Promise.all([getZone(kv, id), zoneVersions(kv, id)]);
  const at = versions.findIndex((v) => (v.applies_from ?? "") === from);
  if (!zone || at < 0) return null;
  const next = versions[at].zone;
  const prev = at > 0 ? versions[at - 1].zone : null;
  const price = (v: number) => f.price(v, next.currency);
  const changes = SHOWN
    .filter((k) => prev === null || prev[k] !== next[k])
    .filter((k) => next[k] !== undefined && next[k] !== null)
    .map((k) => {
      const label = t(`zones.zone_detail.price_history.${k}`);
      return prev === null
        ? `${label}: ${price(next[k])}`
        : `${label}: ${price(prev[k])} → ${price(next[k])}`;
    });
  // A new version starts on a month's first day: named by its month; a correction by its day.
  const when = /^\d{4}-\d{2}(-01)?$/.test(from)
    ? periodLabel(t, from.slice(0, 7), true)
    : f.date(from);
  return {
    values: { zone: zone.name, from: when, changes: changes.join("; ") || "—" },
    link: "/user/pricing",
  };
}
