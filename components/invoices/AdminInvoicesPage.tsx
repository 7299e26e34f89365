/**
 * `/admin/invoices` (issue 31): the invoices with filters (status, kind, month), each with its
 * PDF and XML, a retry for a failed one (with Facturapi's message) and cancellation with the
 * SAT's motive; the month's global invoice issued on demand.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { StoredInvoice } from "../../services/invoices/mod.ts";
import { CANCEL_MOTIVES } from "../../core/cfdi.ts";
import { Card, PageHeader } from "../kit/mod.ts";
import { formatterOf } from "../../core/format.ts";

/** Props of {@link AdminInvoicesPage}. */
export interface AdminInvoicesPageProps {
  invoices: StoredInvoice[];
  filter: { status: string; kind: string; month: string };
  notice?: string;
  error?: string;
}

const STATUSES = ["pending", "valid", "failed", "pending_cancellation", "canceled"] as const;
const KINDS = ["named", "global", "owner"] as const;

/** The page. */
export function AdminInvoicesPage(
  { t, invoices, filter, notice, error }: AdminInvoicesPageProps & { t: Translate },
) {
  const I = (k: string) => t(`invoices.${k}`);
  const f = formatterOf(t);
  const money = (inv: StoredInvoice) => inv.total === null ? "—" : f.money(inv.total, inv.currency);
  const file = (inv: StoredInvoice, f: "pdf" | "xml") =>
    `/admin/invoices/file?key=${encodeURIComponent(inv.key)}&format=${f}`;
  return (
    <>
      <PageHeader title={I("title")} />
      {notice && <div className="alert alert-success" role="status">{notice}</div>}
      {error && <div className="alert alert-error" role="alert">{error}</div>}
      <Card title={I("title")}>
        <form method="get" action="/admin/invoices" className="form form-grid">
          <div className="field">
            <label htmlFor="status">{I("columns.status")}</label>
            <select id="status" name="status" defaultValue={filter.status}>
              <option value="">{I("filter_all")}</option>
              {STATUSES.map((s) => <option key={s} value={s}>{I(`status.${s}`)}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor="kind">{I("columns.kind")}</label>
            <select id="kind" name="kind" defaultValue={filter.kind}>
              <option value="">{I("filter_all")}</option>
              {KINDS.map((k) => <option key={k} value={k}>{I(`kinds.${k}`)}</option>)}
            </select>
          </div>
          <div className="field">
            <label htmlFor="month">{I("columns.month")}</label>
            <input id="month" name="month" type="month" defaultValue={filter.month} />
          </div>
          <div className="form-actions">
            <button type="submit" className="btn">{t("common.search")}</button>
          </div>
        </form>
        <form method="post" action="/admin/invoices/global" className="form">
          <input type="hidden" name="month" value={filter.month} />
          <button type="submit" className="btn btn-secondary" disabled={!filter.month}>
            {I("global_title")} {filter.month}
          </button>
        </form>
      </Card>
      {invoices.length === 0 && <p className="hint" data-testid="no-invoices">{I("none")}</p>}
      <div className="table-wrap" hidden={invoices.length === 0}>
        <table className="data" data-testid="invoices">
          <thead>
            <tr>
              {["key", "kind", "month", "total", "status", "actions"].map((c) => (
                <th key={c}>{I(`columns.${c}`)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {invoices.map((inv) => (
              <tr key={inv.key} data-testid="invoice">
                <td>
                  {inv.key}
                  {inv.test && <small className="hint">({I("test_mode")})</small>}
                </td>
                <td>{I(`kinds.${inv.kind}`)}</td>
                <td>{inv.month ?? new Date(inv.created_at).toISOString().slice(0, 7)}</td>
                <td>{money(inv)}</td>
                <td>
                  {I(`status.${inv.status}`)}
                  {inv.error && <small className="field-error">{inv.error}</small>}
                </td>
                <td>
                  {inv.facturapi_id && (
                    <>
                      <a href={file(inv, "pdf")}>{I("pdf")}</a> ·{" "}
                      <a href={file(inv, "xml")}>{I("xml")}</a>
                    </>
                  )}
                  {inv.status === "failed" && (
                    <form method="post" action="/admin/invoices/retry">
                      <input type="hidden" name="key" value={inv.key} />
                      <button type="submit" className="btn btn-small">{I("retry")}</button>
                    </form>
                  )}
                  {inv.status === "valid" && (
                    <form method="post" action="/admin/invoices/cancel" className="inline-form">
                      <input type="hidden" name="key" value={inv.key} />
                      <label>
                        {I("motive")}{" "}
                        <select name="motive" defaultValue="02">
                          {CANCEL_MOTIVES.map((m) => (
                            <option key={m} value={m}>{I(`motives.${m}`)}</option>
                          ))}
                        </select>
                      </label>
                      <label>
                        {I("substitution")} <input name="substitution" />
                      </label>
                      <button type="submit" className="btn btn-small">{I("cancel")}</button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
