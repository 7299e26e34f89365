/**
 * What a unit bill adds to the spec's details when its zone uses the additions of real
 * tariffs or its period spans a price change (issue 17): the high-consumption (DAC) fact with
 * the 12-month average, the minimum consumption billed, the fixed charge, and the price
 * versions the period was split into by days.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { UnitBillDetails } from "../../core/bill_details.ts";
import { factLines } from "../../core/reports.ts";
import { formatterOf } from "../../core/format.ts";

const TEST_IDS: Record<string, string> = {
  high_consumption: "high-consumption",
  price_version: "price-version-part",
};

/** The facts, or nothing when the bill has none. */
export function BillFacts(
  { t, details, currency }: { t: Translate; details: UnitBillDetails; currency: string },
) {
  const { money } = formatterOf(t);
  const lines = factLines(t, details, (cents) => money(cents, currency));
  if (lines.length === 0) return null;
  return (
    <ul className="tier-lines" data-testid="bill-facts">
      {lines.map((l, i) => (
        <li
          key={i}
          data-testid={TEST_IDS[l.kind] ?? l.kind}
          data-exceeded={l.exceeded === undefined ? undefined : String(l.exceeded)}
        >
          {l.exceeded && (
            <>
              <span className="badge badge-red">{t("reports.unit_report.facts.dac_badge")}</span>
              {" "}
            </>
          )}
          {l.text}
        </li>
      ))}
    </ul>
  );
}
