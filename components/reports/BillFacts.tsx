/**
 * What a unit bill adds to the spec's details when its zone uses the additions of real
 * tariffs or its period spans a price change (issue 17): the high-consumption (DAC) fact with
 * the 12-month average, the minimum consumption billed, the fixed charge, and the price
 * versions the period was split into by days.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { BillFactsData } from "../../services/reports/mod.ts";
import { money } from "./format.ts";

/** The facts, or nothing when the bill has none. */
export function BillFacts(
  { t, details, currency }: { t: Translate; details: BillFactsData; currency: string },
) {
  const D = (k: string, p?: Record<string, string | number>) =>
    t(`reports.unit_report.facts.${k}`, p);
  const h = details.high_consumption;
  const parts = details.price_versions;
  if (!h && details.minimum_kwh === null && !details.fixed_charge && parts.length < 2) {
    return null;
  }
  return (
    <ul className="tier-lines" data-testid="bill-facts">
      {h && (
        <li data-testid="high-consumption" data-exceeded={String(h.exceeded)}>
          {h.exceeded && <span className="badge badge-red">{D("dac_badge")}</span>}{" "}
          {D(h.exceeded ? "dac_over" : "dac_under", {
            average: h.average_kwh,
            months: h.months,
            limit: h.limit_kwh,
          })}
        </li>
      )}
      {details.minimum_kwh !== null && <li>{D("minimum", { kwh: details.minimum_kwh })}</li>}
      {details.fixed_charge
        ? <li>{D("fixed_charge", { amount: money(details.fixed_charge, currency) })}</li>
        : null}
      {parts.length > 1 && parts.map((p) => (
        <li key={p.from} data-testid="price-version-part">
          {D("version_part", {
            from: p.from,
            to: p.to,
            days: p.days,
            version: p.applies_from ?? D("first_version"),
          })}
        </li>
      ))}
    </ul>
  );
}
