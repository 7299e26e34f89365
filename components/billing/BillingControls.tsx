/**
 * The shared parts of the admin billing pages: the zone/year/period pickers (a GET form), the
 * process form (with its confirmation), the result panel and the four tiles.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { Island } from "../render.tsx";
import ConfirmSubmit from "../../islands/ConfirmSubmit.tsx";
import { periodLabel, type Pickers } from "./model.ts";

/** What a processing run reported, read back from the redirect. */
export type ProcessResult =
  | {
    ok: true;
    period: string;
    /** Whether the bills were finalized (the period has ended) or are drafts. */
    finalized: boolean;
    stations: number;
    units: {
      created: number;
      updated: number;
      skipped: number;
      estimated: number;
      failed: number;
      /** Bills with days without readings. */
      missing: number;
    };
    station_bills: { created: number; updated: number; skipped: number; failed: number };
  }
  | { ok: false; message: string };

/** Props of {@link PickerForm}. */
interface PickerFormProps {
  t: Translate;
  action: string;
  pickers: Pickers;
}

/** Zone, year and period as a GET form; without JS the Show button submits it. */
export function PickerForm({ t, action, pickers }: PickerFormProps) {
  const P = (k: string) => t(`billing.pickers.${k}`);
  if (pickers.zones.length === 0) {
    return <div className="alert alert-info" role="status">{P("no_zones")}</div>;
  }
  return (
    <form method="get" action={action} className="card billing-pickers" data-testid="pickers">
      <div className="field">
        <label htmlFor="billing-zone">{P("zone")}</label>
        <select id="billing-zone" name="zone_id" defaultValue={String(pickers.zone?.id ?? "")}>
          {pickers.zones.map((z) => <option key={z.id} value={String(z.id)}>{z.name}</option>)}
        </select>
      </div>
      <div className="field">
        <label htmlFor="billing-year">{P("year")}</label>
        <select id="billing-year" name="year" defaultValue={String(pickers.year)}>
          {pickers.years.map((y) => <option key={y} value={String(y)}>{y}</option>)}
        </select>
      </div>
      <div className="field">
        <label htmlFor="billing-period">
          {P(pickers.kind === "monthly" ? "month" : "bimester")}
        </label>
        <select id="billing-period" name="period" defaultValue={pickers.period}>
          {pickers.periods.map((p) => <option key={p} value={p}>{periodLabel(t, p)}</option>)}
        </select>
      </div>
      <div className="billing-pickers-submit">
        <button type="submit" className="btn btn-secondary">{P("show")}</button>
      </div>
    </form>
  );
}

/** Props of {@link ProcessForm}. */
interface ProcessFormProps {
  t: Translate;
  action: string;
  pickers: Pickers;
}

/** The Process Zone button: disabled with a hint when no zone is selected. */
export function ProcessForm({ t, action, pickers }: ProcessFormProps) {
  const D = (k: string, p?: Record<string, string | number>) =>
    t(`billing.process.confirm_dialog.${k}`, p);
  if (!pickers.zone) {
    return (
      <div className="billing-process" data-testid="process">
        <button type="button" className="btn" disabled>{t("billing.process.button")}</button>
        <p className="muted">{t("billing.process.select_zone_hint")}</p>
      </div>
    );
  }
  return (
    <div className="billing-process" data-testid="process">
      <Island
        of={ConfirmSubmit}
        props={{
          action,
          fields: { zone_id: String(pickers.zone.id), period: pickers.period },
          label: t("billing.process.button"),
          className: "btn",
          title: D("title"),
          message: `${
            D("message", { zone: pickers.zone.name, period: periodLabel(t, pickers.period) })
          } ${D("warning")}`,
          confirmLabel: D("confirm"),
          cancelLabel: D("cancel"),
        }}
      />
    </div>
  );
}

/** The result of a processing run (success with counts, or failure with its text). */
export function ResultPanel({ t, result }: { t: Translate; result: ProcessResult }) {
  const R = (k: string, p?: Record<string, string | number>) =>
    t(`billing.process.result_dialog.${k}`, p);
  if (!result.ok) {
    return (
      <section className="alert alert-error billing-result" role="alert" data-testid="result">
        <strong>{R("failure_title")}</strong>
        <p>{result.message}</p>
      </section>
    );
  }
  const X = (k: string) => t(`billing.process.result.${k}`);
  const rows: [string, number, number | null][] = [
    ["row_created", result.units.created, result.station_bills.created],
    ["row_updated", result.units.updated, result.station_bills.updated],
    ["row_skipped", result.units.skipped, result.station_bills.skipped],
    ["row_estimated", result.units.estimated, null],
    ["row_missing", result.units.missing, null],
    ["row_failed", result.units.failed, result.station_bills.failed],
  ];
  return (
    <section className="alert alert-success billing-result" role="status" data-testid="result">
      <strong>{R("success_title")}</strong>
      <p>{R("success_message", { period: periodLabel(t, result.period) })}</p>
      <p data-testid="result-kind">{X(result.finalized ? "finalized_notice" : "drafts_notice")}</p>
      <table className="data result-counts">
        <thead>
          <tr>
            <th scope="col">{X("kind")}</th>
            <th scope="col" className="num">{X("unit_bills")}</th>
            <th scope="col" className="num">{X("station_bills")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.filter(([k, u, s]) =>
            (k !== "row_failed" && k !== "row_missing") || u + (s ?? 0) > 0
          ).map(([k, u, s]) => (
            <tr key={k} data-count={k}>
              <th scope="row">{X(k)}</th>
              <td className="num">{u}</td>
              <td className="num">{s ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{R("stations_processed", { count: result.stations })}</p>
    </section>
  );
}

/** Props of {@link Tiles}. */
interface TilesProps {
  t: Translate;
  total: number;
  finalized: number;
  kind: string;
}

/** Total bills, finalized, draft and the billing type. */
export function Tiles({ t, total, finalized, kind }: TilesProps) {
  const tile = (id: string, label: string, value: string | number) => (
    <div className="stat" data-testid={`tile-${id}`}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
    </div>
  );
  return (
    <div className="stats">
      {tile("total", t("billing.tiles.total_bills"), total)}
      {tile("finalized", t("billing.tiles.finalized"), finalized)}
      {tile("draft", t("billing.tiles.draft"), total - finalized)}
      {tile("type", t("billing.tiles.billing_type"), t(`billing.billing_types.${kind}`))}
    </div>
  );
}

/** Props of {@link BillingConfirmPage}. */
export interface BillingConfirmPageProps {
  title: string;
  message: string;
  action: string;
  fields: Record<string, string>;
  confirmLabel: string;
  cancelLabel: string;
  cancelHref: string;
  danger?: boolean;
}

/** The confirmation page for browsers without JavaScript (process or delete). */
export function BillingConfirmPage(p: BillingConfirmPageProps) {
  return (
    <section className="card confirm-card" aria-labelledby="confirm-title">
      <h1 id="confirm-title">{p.title}</h1>
      <p>{p.message}</p>
      <form method="post" action={p.action} className="form-actions">
        {Object.entries(p.fields).map(([k, v]) => (
          <input
            key={k}
            type="hidden"
            name={k}
            value={v}
          />
        ))}
        <input type="hidden" name="confirm" value="yes" />
        <a className="btn btn-secondary" href={p.cancelHref}>{p.cancelLabel}</a>
        <button type="submit" className={p.danger ? "btn btn-danger" : "btn"}>
          {p.confirmLabel}
        </button>
      </form>
    </section>
  );
}
