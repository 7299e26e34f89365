/** The frame of both admin billing pages: head, pickers, process, result, tiles and the list. */
import type { ReactNode } from "react";
import type { Translate } from "../../services/platform/i18n.ts";
import {
  PickerForm,
  ProcessForm,
  type ProcessResult,
  ResultPanel,
  Tiles,
} from "./BillingControls.tsx";
import { periodLabel, type Pickers } from "./model.ts";

/** Props of {@link BillingPage}. */
interface BillingPageProps {
  t: Translate;
  /** Which page: unit bills or station (customer) bills. */
  mode: "units" | "stations";
  /** The page's path, and its title when it is one of the spec's other billing paths. */
  base: string;
  title?: string;
  pickers: Pickers;
  result: ProcessResult | null;
  /** A success notice (bill deleted) and an error (bill finalized, not found, load failed). */
  notice: string | null;
  error: string | null;
  /** Station page: processing created and updated no bills. */
  noUnitBills: boolean;
  total: number;
  finalized: number;
  /** The list (null when the bills could not be loaded). */
  list: ReactNode | null;
}

/** The page. */
export function BillingPage(p: BillingPageProps) {
  const { t } = p;
  const section = p.mode === "units" ? "unit_billing" : "station_billing";
  const S = (k: string, params?: Record<string, string | number>) =>
    t(`billing.${section}.${k}`, params);
  const base = p.base;
  return (
    <div className="billing-page" data-testid={`${p.mode}-billing`}>
      <div className="page-head">
        <div>
          <h1>{p.title ?? S("title")}</h1>
          <p className="muted">{S("subtitle")}</p>
        </div>
        <div className="page-actions">
          <ProcessForm t={t} action={`${base}/process`} pickers={p.pickers} />
        </div>
      </div>
      <PickerForm t={t} action={base} pickers={p.pickers} />
      {p.result && <ResultPanel t={t} result={p.result} />}
      {p.noUnitBills && (
        <section className="alert alert-warning" role="status" data-testid="no-unit-bills">
          <strong>{t("billing.station_billing.no_unit_bills_notice.title")}</strong>
          <p>{t("billing.station_billing.no_unit_bills_notice.message")}</p>
          <a className="btn btn-sm" href="/admin/units-billing">
            {t("billing.station_billing.no_unit_bills_notice.button")}
          </a>
        </section>
      )}
      {p.notice && <div className="alert alert-success notice" role="status">{p.notice}</div>}
      {p.error && <div className="alert alert-error" role="alert">{p.error}</div>}
      <Tiles t={t} total={p.total} finalized={p.finalized} kind={p.pickers.kind} />
      <h2 className="billing-list-title">
        {S("list_title", { period: periodLabel(t, p.pickers.period) })}
      </h2>
      {p.list === null
        ? <div className="alert alert-error" role="alert">{t("billing.errors.load_bills")}</div>
        : p.total === 0
        ? (
          <section className="card empty" data-testid="empty-state">
            <p>{S("empty")}</p>
            {p.mode === "units" && <p className="muted">{S("empty_hint")}</p>}
          </section>
        )
        : (
          <>
            {p.list}
            <p className="list-foot">
              <a
                className="btn btn-sm btn-secondary"
                href={`${base}/export.csv?zone_id=${
                  p.pickers.zone?.id ?? ""
                }&period=${p.pickers.period}`}
                download
              >
                {t("billing.export.csv")}
              </a>
            </p>
          </>
        )}
    </div>
  );
}
