/**
 * The expandable details of a period row (spec 001 section 2, "Unit report"): status banner,
 * energy cost per tier (or energy times price), compensation, tax base, tax, final bill, the
 * season whose rates applied, who made it and why, payment dates.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { Zone } from "../../core/zone.ts";
import type { UnitBill } from "../../core/bill.ts";
import type { ReportStatus } from "../../core/bill_status.ts";
import { formatterOf } from "../../core/format.ts";
import { BillFacts } from "./BillFacts.tsx";

/** Props of {@link PeriodDetails}. */
interface PeriodDetailsProps {
  t: Translate;
  bill: UnitBill | null;
  status: ReportStatus;
  zone: Zone | null;
}

/** The details block. */
export function PeriodDetails({ t, bill, status, zone }: PeriodDetailsProps) {
  const { money } = formatterOf(t);
  const D = (k: string, p?: Record<string, string | number>) =>
    t(`reports.unit_report.details.${k}`, p);
  const banner = status.key === "saved" && bill?.is_estimation ? "saved_estimate" : status.key;
  const head = (
    <p className={`report-banner badge-${status.colour}`} role="status">
      {D(`status_banner.${banner}`)}
    </p>
  );
  if (!bill) return <div className="period-details">{head}</div>;
  const cur = bill.currency;
  const details = bill.calculation_details;
  const taxBase = bill.base_tariff + bill.energy_cost + bill.compensation_cost;
  const taxRate = zone?.tax_percentage;
  const level = (l: string) =>
    ["low", "middle", "high", "surplus"].includes(l)
      ? t(`reports.unit_report.price_table.${l}`)
      : l;
  return (
    <div className="period-details">
      {head}
      <dl className="info-list">
        <dt>{D("energy_cost")}</dt>
        <dd>
          {details.tiers.length > 0
            ? (
              <ul className="tier-lines">
                {details.tiers.map((x, i) => (
                  <li key={i}>
                    {D("tier_line", {
                      description: `${level(x.level)} · ${
                        D("energy_times_price", { kwh: x.kwh, price: x.price })
                      }`,
                      cost: money(x.tier_cost, cur),
                    })}
                  </li>
                ))}
              </ul>
            )
            : null}
          <strong>{money(bill.energy_cost, cur)}</strong>
        </dd>
        {zone?.industrial_tariff && zone.compensation_factor_enabled &&
          bill.compensation_cost > 0 && (
          <>
            <dt>{D("compensation_cost")}</dt>
            <dd>
              {money(bill.compensation_cost, cur)}{" "}
              <span className="muted small">
                ({D("compensation_line", { percent: zone.compensation_factor_percentage })})
              </span>
            </dd>
          </>
        )}
        <dt>{D("base_tariff")}</dt>
        <dd>{money(bill.base_tariff, cur)}</dd>
        <dt>{D("tax_base")}</dt>
        <dd>{money(taxBase, cur)}</dd>
        <dt>{D("tax", { percent: taxRate ?? "-" })}</dt>
        <dd>{money(bill.tax_cost, cur)}</dd>
        <dt>{D("final_bill")}</dt>
        <dd className="report-strong">{money(bill.total_cost, cur)}</dd>
        {bill.author && (
          <>
            <dt>{D("author")}</dt>
            <dd>{bill.author}</dd>
          </>
        )}
        {bill.recalculation_method && (
          <>
            <dt>{D("recalculation_method")}</dt>
            <dd>{t(`billing.recalculation.methods.${bill.recalculation_method}.name`)}</dd>
          </>
        )}
        {bill.override_reason && (
          <>
            <dt>{D("override_reason")}</dt>
            <dd>{bill.override_reason}</dd>
          </>
        )}
      </dl>
      <BillFacts t={t} details={bill.calculation_details} currency={cur} />
      {details.season && <p className="muted small">{D(`${details.season}_rates`)}</p>}
      {(bill.payment_date || bill.payment_due_date) && (
        <p className="muted small">
          {bill.payment_date
            ? D("paid_on", { date: bill.payment_date.slice(0, 10) })
            : D("payment_due", { date: bill.payment_due_date ?? "" })}
        </p>
      )}
    </div>
  );
}
