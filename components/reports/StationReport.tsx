/**
 * The station report page (spec 001 section 2): period picker (GET form), PDF download,
 * overview, costs overview (tenant billing versus customer billing, with profits), a unit
 * picker when more than one bill exists, and the selected unit's breakdown with a donut.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { StoredDevice } from "../../core/devices.ts";
import type { UnitBill } from "../../core/bill.ts";
import type { StationReportData } from "../../services/reports/mod.ts";
import { periodLabel } from "../../core/periods.ts";
import { Donut } from "./Donut.tsx";
import { LanguageMenu } from "./LanguageMenu.tsx";
import { pdfHref } from "./format.ts";
import { formatterOf } from "../../core/format.ts";
import { Card, PeriodPicker, Picker } from "../kit/mod.ts";

/** Props of {@link StationReport}. */
interface StationReportProps {
  t: Translate;
  station: StoredDevice;
  city: string;
  zoneName: string | null;
  kind: "monthly" | "bimonthly";
  periods: string[];
  data: StationReportData;
  /** The unit whose breakdown shows. */
  selected: UnitBill | null;
  /** A PDF could not be made. */
  error: string | null;
}

/** The page. */
export function StationReport(p: StationReportProps) {
  const { t, station, data } = p;
  const { money, kwh } = formatterOf(t);
  const S = (k: string, params?: Record<string, string | number>) =>
    t(`reports.station_report.${k}`, params);
  const cur = data.currency;
  const unitIds = data.bills.map((b) => b.unit_id);
  const unitName = (id: string) =>
    station.config.station?.units.find((u) => u.id === id)?.name || id;
  const units = station.config.station?.units.length ?? 0;
  const cb = data.customerBill;
  const base = `/admin/report/station/${station.id}`;
  const billing = p.kind === "bimonthly" ? "/admin/stations-billing" : "/admin/units-billing";
  const row = (label: string, value: string, strong = false) => (
    <>
      <dt>{label}</dt>
      <dd className={strong ? "report-strong" : undefined}>{value}</dd>
    </>
  );
  return (
    <div className="report-page" data-testid="station-report">
      <div className="page-head">
        <div>
          <a className="link-btn" href={`/admin/devices/station/${station.id}/data`}>
            ← {S("back")}
          </a>
          <h1>{S("title")}</h1>
          <p className="muted">{S("subtitle", { station: station.name, city: p.city })}</p>
        </div>
        <div className="page-actions">
          {cb && (
            <LanguageMenu
              t={t}
              label={S("download_pdf")}
              languages={["en", "es", "de"]}
              href={(language) =>
                pdfHref(station.id, { type: "customer", period: data.period, language })}
            />
          )}
        </div>
      </div>
      <form className="report-picker card" method="get" action={base}>
        <PeriodPicker t={t} label={S("period_label")} value={data.period} periods={p.periods} />
        <button type="submit" className="btn btn-secondary">{t("billing.pickers.show")}</button>
      </form>
      {p.error && <div className="alert alert-error" role="alert">{p.error}</div>}
      {data.bills.length === 0 && (
        <section className="alert alert-warning" role="status" data-testid="no-bills-notice">
          <strong>{S("no_bills_notice.title")}</strong>
          <p>{S("no_bills_notice.message")}</p>
          <a className="btn btn-sm" href={billing}>
            {S(
              p.kind === "bimonthly"
                ? "no_bills_notice.go_to_station_billing"
                : "no_bills_notice.go_to_unit_billing",
            )}
          </a>
        </section>
      )}
      <Card title={S("overview.title")} headingId="overview-title">
        <dl className="info-list report-overview">
          {row(S("overview.station"), station.name)}
          {row(S("overview.serial_number"), station.serial_number)}
          {row(
            S("overview.customer"),
            data.customerName ?? t("billing.station_billing.not_assigned"),
          )}
          {row(S("overview.location"), p.city)}
          {row(S("overview.zone"), p.zoneName ?? t("reports.unit_report.pricing_zone.no_zone"))}
          {row(S("overview.billing_type"), t(`billing.billing_types.${p.kind}`))}
          {row(S("overview.period"), periodLabel(t, data.period))}
          {row(S("overview.units"), String(units))}
          {row(S("overview.bills"), String(data.bills.length))}
          {row(S("overview.total_energy"), kwh(data.totals.energy))}
        </dl>
      </Card>
      <Card title={S("costs_overview.title")} headingId="costs-title">
        <div className="grid-2">
          <div data-testid="tenant-summary">
            <h3>{S("costs_overview.tenant_summary")}</h3>
            <p className="muted small">
              {S("costs_overview.bill_count", { count: data.bills.length })}
            </p>
            <dl className="info-list">
              {row(S("costs_overview.energy"), kwh(data.totals.energy))}
              {row(S("costs_overview.base_tariff"), money(data.totals.base_tariff, cur))}
              {row(S("costs_overview.energy_cost"), money(data.totals.energy_cost, cur))}
              {row(
                S("costs_overview.compensation_cost"),
                money(data.totals.compensation_cost, cur),
              )}
              {row(S("costs_overview.tax"), money(data.totals.tax_cost, cur))}
              {row(S("costs_overview.total"), money(data.totals.total_cost, cur), true)}
            </dl>
          </div>
          <div data-testid="customer-summary">
            <h3>{S("costs_overview.customer_summary")}</h3>
            {cb
              ? (
                <dl className="info-list">
                  {row(
                    S("costs_overview.commission_rate", {
                      rate: cb.calculation_details.commission_rate,
                    }),
                    money(cb.commission_amount, cb.currency),
                  )}
                  {row(
                    S("costs_overview.fee_per_unit", {
                      count: cb.calculation_details.unit_count,
                      fee: money(cb.calculation_details.fee_per_unit, cb.currency),
                    }),
                    money(cb.fee_amount, cb.currency),
                  )}
                  {row(
                    S("costs_overview.tax_rate", { rate: cb.calculation_details.tax_rate }),
                    money(cb.tax_amount, cb.currency),
                  )}
                  {row(S("costs_overview.total_amount"), money(cb.total_amount, cb.currency), true)}
                </dl>
              )
              : <p className="muted">{S("costs_overview.no_customer_bill")}</p>}
          </div>
        </div>
        {data.providerProfit !== null && data.customerProfit !== null && (
          <div className="stats report-profits" data-testid="profits">
            <div className="stat">
              <div className="stat-label">{S("costs_overview.provider_profit")}</div>
              <div className="stat-value stat-text">{money(data.providerProfit, cur)}</div>
            </div>
            <div className="stat">
              <div className="stat-label">{S("costs_overview.customer_profit")}</div>
              <div className="stat-value stat-text">{money(data.customerProfit, cur)}</div>
            </div>
          </div>
        )}
      </Card>
      {p.selected && (
        <section className="card" aria-labelledby="unit-title" data-testid="unit-breakdown">
          <div className="section-head report-unit-head">
            <h2 id="unit-title">{S("unit_breakdown.title")}</h2>
            {data.bills.length > 1 && (
              <form method="get" action={base} className="report-unit-picker">
                <input type="hidden" name="period" value={data.period} />
                <Picker
                  label={S("unit_selector.label")}
                  name="unit"
                  value={p.selected.unit_id}
                  options={unitIds}
                  text={unitName}
                />
                <button type="submit" className="btn btn-sm btn-secondary">
                  {t("billing.pickers.show")}
                </button>
              </form>
            )}
          </div>
          <UnitBreakdown
            t={t}
            bill={p.selected}
            unit={unitName(p.selected.unit_id)}
            tenant={p.selected.tenant_id === null
              ? null
              : data.tenants.get(p.selected.tenant_id) ?? null}
            stationId={station.id}
          />
        </section>
      )}
    </div>
  );
}

/** The selected unit: donut of its cost parts, figures and the Details button. */
function UnitBreakdown(
  { t, bill, unit, tenant, stationId }: {
    t: Translate;
    bill: UnitBill;
    unit: string;
    tenant: string | null;
    stationId: number;
  },
) {
  const { money, kwh } = formatterOf(t);
  const U = (k: string) => t(`reports.station_report.unit_breakdown.${k}`);
  const cur = bill.currency;
  const period = bill.billing_month ?? bill.billing_period ?? "";
  const q = bill.billing_month ? `month=${period}` : `period=${period}`;
  const parts = [
    { label: U("base_tariff"), value: bill.base_tariff, colour: "#6366f1" },
    { label: U("energy_cost"), value: bill.energy_cost, colour: "#0ea5e9" },
    { label: U("compensation_cost"), value: bill.compensation_cost, colour: "#f59e0b" },
    { label: U("tax"), value: bill.tax_cost, colour: "#ef4444" },
  ].map((x) => ({ ...x, text: money(x.value, cur) }));
  return (
    <div className="report-breakdown">
      <Donut parts={parts} centre={money(bill.total_cost, cur)} title={`${unit} · ${U("total")}`} />
      <div>
        <h3>{unit}</h3>
        <dl className="info-list">
          <dt>{U("tenant")}</dt>
          <dd>{tenant ?? t("billing.unit_billing.not_assigned")}</dd>
          <dt>{U("energy")}</dt>
          <dd>{kwh(bill.energy_consumption)}</dd>
          <dt>{U("total")}</dt>
          <dd className="report-strong">{money(bill.total_cost, cur)}</dd>
        </dl>
        <a
          className="btn btn-sm"
          href={`/admin/report/station/${stationId}/unit/${encodeURIComponent(bill.unit_id)}?${q}`}
        >
          {U("details")}
        </a>
      </div>
    </div>
  );
}
