/**
 * The unit report page (spec 001 section 2): title, pricing zone card, energy overview of a
 * year, a bar chart of energy and cost per period, and the reports of the year with a
 * download per period, the expandable details and (admin, past periods with a bill) the
 * recalculation dialog. Everything works without JavaScript (<details> and GET/POST forms).
 */
import { isPaymentStatus, PAYMENT_COLOURS } from "../../core/payment.ts";
import type { Translate } from "../../services/platform/i18n.ts";
import type { Zone } from "../../core/zone.ts";
import type { PeriodRow } from "../../services/reports/mod.ts";
import { zoneOfBill } from "../../core/reports.ts";
import { parsePeriod, periodLabel } from "../../core/periods.ts";
import { Island } from "../render.tsx";
import RecalcForm, { type RecalcFormProps } from "../../islands/RecalcForm.tsx";
import { ZoneCard } from "./ZoneCard.tsx";
import { EnergyBars } from "./EnergyBars.tsx";
import { PeriodDetails } from "./PeriodDetails.tsx";
import { LanguageMenu } from "./LanguageMenu.tsx";
import { pdfHref } from "./format.ts";
import { formatterOf } from "../../core/format.ts";
import { Picker } from "../kit/mod.ts";

/** A recalculation attempt that failed validation, shown again in its dialog. */
export interface RecalcAttempt {
  period: string;
  method: string;
  consumption: string;
  reason: string;
  errors: Record<string, string>;
}

/** Props of {@link UnitReport}. */
interface UnitReportProps {
  t: Translate;
  stationId: number;
  stationName: string;
  city: string;
  unit: { id: string; name: string };
  tenant: string | null;
  kind: "monthly" | "bimonthly";
  zone: Zone | null;
  year: number;
  years: number[];
  rows: PeriodRow[];
  /** The period whose details are open. */
  expanded: string | null;
  notice: string | null;
  error: string | null;
  attempt: RecalcAttempt | null;
  /** Builds the recalculation form of a row. */
  recalcForm: (row: PeriodRow, attempt: RecalcAttempt | null) => RecalcFormProps;
}

/** A short label of a period for the chart (`Jan`, `Jan-Feb`). */
function shortLabel(t: Translate, text: string): string {
  const p = parsePeriod(text);
  if (p.kind === "monthly") {
    return t(`billing.periods.months.m${String(p.months[0]).padStart(2, "0")}`).slice(0, 3);
  }
  const pairs = ["jan_feb", "mar_apr", "may_jun", "jul_aug", "sep_oct", "nov_dec"];
  return t(`billing.periods.bimonthly.${pairs[(p.months[0] - 1) / 2]}`);
}

/** The page. */
export function UnitReport(p: UnitReportProps) {
  const { t } = p;
  const { money, kwh } = formatterOf(t);
  const U = (k: string, params?: Record<string, string | number>) =>
    t(`reports.unit_report.${k}`, params);
  const R = (k: string) => t(`reports.unit_report.reports_table.columns.${k}`);
  const currency = p.rows.find((r) => r.bill)?.bill?.currency ?? p.zone?.currency ?? "MXN";
  const base = `/admin/report/station/${p.stationId}/unit/${encodeURIComponent(p.unit.id)}`;
  const shown = p.rows.filter((r) => !r.future);
  const latest = [...shown].reverse().find((r) => r.bill)?.bill ?? null;
  const average = shown.length === 0
    ? 0
    : shown.reduce((s, r) => s + (r.bill?.energy_consumption ?? 0), 0) / shown.length;
  const payment = (r: PeriodRow) => {
    if (!r.bill) return <span className="muted">-</span>;
    const s = r.bill.payment_status;
    const known = isPaymentStatus(s);
    return (
      <span className={`badge badge-${known ? PAYMENT_COLOURS[s] : "yellow"}`} data-payment={s}>
        {t(`billing.payment_status.${known ? s : "unknown"}`)}
      </span>
    );
  };
  return (
    <div className="report-page" data-testid="unit-report">
      <div className="page-head">
        <div>
          <a className="link-btn" href={`/admin/report/station/${p.stationId}`}>← {U("back")}</a>
          <h1>{U("title", { unit: p.unit.name, type: U(p.kind) })}</h1>
          <p className="muted">
            {U("station_location", { station: p.stationName, city: p.city })}
            {p.tenant ? ` · ${p.tenant}` : ""}
          </p>
        </div>
      </div>
      {p.notice && <div className="alert alert-success" role="status">{p.notice}</div>}
      {p.error && <div className="alert alert-error" role="alert">{p.error}</div>}
      <div className="report-grid">
        <ZoneCard t={t} zone={p.zone} />
        <section className="card" aria-labelledby="energy-title">
          <div className="section-head report-unit-head">
            <h2 id="energy-title">{U("energy_overview.title")}</h2>
            <form method="get" action={base} className="report-year">
              <Picker
                label={U("energy_overview.year")}
                name="year"
                value={p.year}
                options={p.years}
              />
              <button type="submit" className="btn btn-sm btn-secondary">
                {t("billing.pickers.show")}
              </button>
            </form>
          </div>
          <div className="stats report-stats">
            <div className="stat">
              <div className="stat-label">{U("energy_overview.latest_period")}</div>
              <div className="stat-value stat-text" data-testid="latest-energy">
                {kwh(latest?.energy_consumption ?? 0)}
              </div>
            </div>
            <div className="stat">
              <div className="stat-label">{U("energy_overview.year_average")}</div>
              <div className="stat-value stat-text" data-testid="year-average">
                {kwh(average)}
              </div>
            </div>
            <div className="stat">
              <div className="stat-label">{U("energy_overview.zone")}</div>
              <div className="stat-value stat-text">
                {p.zone?.name ?? U("energy_overview.flat_rate")}
              </div>
            </div>
          </div>
          {shown.length > 0
            ? (
              <EnergyBars
                title={U("chart.title")}
                energyLabel={U("chart.energy")}
                costLabel={U("chart.cost")}
                currency={currency}
                bars={shown.map((r) => ({
                  label: shortLabel(t, r.period),
                  energy: r.bill?.energy_consumption ?? 0,
                  cost: r.bill?.total_cost ?? 0,
                }))}
              />
            )
            : <p className="muted">{U("chart.no_data")}</p>}
        </section>
      </div>
      <section className="card" aria-labelledby="reports-title">
        <h2 id="reports-title">{U("reports_table.title")} · {p.year}</h2>
        <div className="period-head" aria-hidden="true">
          <span>{R(p.kind === "monthly" ? "month" : "period")}</span>
          <span className="num">{R("energy")}</span>
          <span className="num">{R("cost")}</span>
          <span>{R("status")}</span>
          <span>{R("payment")}</span>
          <span>{R("details")}</span>
        </div>
        <ul className="period-list" role="list">
          {p.rows.map((r) => {
            const attempt = p.attempt?.period === r.period ? p.attempt : null;
            const open = p.expanded === r.period || attempt !== null;
            const cls = r.future
              ? "period-row period-future"
              : r.bill?.is_estimation && r.past
              ? "period-row period-estimated"
              : "period-row";
            return (
              <li key={r.period} id={`period-${r.period}`} className={cls} data-period={r.period}>
                <details open={open}>
                  <summary>
                    <span className="period-name">
                      <strong>{periodLabel(t, r.period)}</strong>
                      {r.current && (
                        <span className="muted small">{U("reports_table.current_period")}</span>
                      )}
                    </span>
                    <span className="num" data-label={R("energy")}>
                      {r.bill ? kwh(r.bill.energy_consumption) : "-"}
                    </span>
                    <span className="num" data-label={R("cost")}>
                      {r.bill ? money(r.bill.total_cost, r.bill.currency) : "-"}
                    </span>
                    <span data-label={R("status")}>
                      <span className={`badge badge-${r.status.colour}`} data-status={r.status.key}>
                        {t(`reports.status.${r.status.key}`)}
                      </span>
                    </span>
                    <span data-label={R("payment")}>{payment(r)}</span>
                    <span className="period-toggle">{U("reports_table.show_details")}</span>
                  </summary>
                  <div className="period-body">
                    {r.bill && (
                      <div className="row-actions period-actions">
                        <LanguageMenu
                          t={t}
                          small
                          label={`${R("report")}: ${U("reports_table.download")}`}
                          languages={["en", "es", "de"]}
                          href={(language) =>
                            pdfHref(p.stationId, {
                              type: "unit",
                              period: r.period,
                              unit: p.unit.id,
                              language,
                            })}
                        />
                        {r.past && (
                          <details className="recalc-dialog" open={attempt !== null}>
                            <summary className="btn btn-sm">
                              {t("billing.recalculation.button")}
                            </summary>
                            <div className="card recalc-card">
                              <h3>{t("billing.recalculation.title")}</h3>
                              <p className="muted small">
                                {t("billing.recalculation.description", {
                                  period: periodLabel(t, r.period),
                                })}
                              </p>
                              <p className="small">
                                {t("billing.recalculation.current_energy", {
                                  kwh: r.bill.energy_consumption.toFixed(2),
                                })} · {t("billing.recalculation.current_total", {
                                  amount: money(r.bill.total_cost, r.bill.currency),
                                })}
                              </p>
                              <Island of={RecalcForm} props={p.recalcForm(r, attempt)} />
                            </div>
                          </details>
                        )}
                      </div>
                    )}
                    {r.parts.length > 1 && <PeriodParts t={t} row={r} />}
                    <PeriodDetails
                      t={t}
                      bill={r.bill}
                      status={r.status}
                      zone={zoneOfBill(r.bill?.zone_snapshot, p.zone)}
                    />
                  </div>
                </details>
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}

/**
 * The bills of a period in which the unit changed hands (issue 24): one line per tenancy and
 * vacant stretch with its dates, energy, total and payment. The details below are the first
 * part's; each part is in the bill lists with its own actions.
 */
function PeriodParts({ t, row }: { t: Translate; row: PeriodRow }) {
  const { money, kwh } = formatterOf(t);
  const P = (k: string, p?: Record<string, string | number>) =>
    t(`reports.unit_report.parts.${k}`, p);
  return (
    <section className="period-parts" data-testid="period-parts" aria-label={P("title")}>
      <h4>{P("title")}</h4>
      <ul className="tenancy-list">
        {row.parts.map(({ bill, tenant, dates }) => (
          <li key={bill.id} data-bill={bill.id}>
            <strong>{tenant ?? P("vacant")}</strong>
            <span className="nowrap">{dates ? `${dates.from} – ${dates.to}` : "—"}</span>
            <span className="nowrap">{kwh(bill.energy_consumption)}</span>
            <span className="nowrap">{money(bill.total_cost, bill.currency)}</span>
            <span>
              {t(
                `billing.payment_status.${
                  bill.total_cost === 0 && bill.is_finalized ? "nothing_due" : bill.payment_status
                }`,
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
