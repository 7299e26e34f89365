/** The unit bills of a zone and period: a table on desktop, cards on phones. */
import type { Translate } from "../../services/platform/i18n.ts";
import { Island } from "../render.tsx";
import ConfirmSubmit from "../../islands/ConfirmSubmit.tsx";
import { LanguageMenu } from "../reports/LanguageMenu.tsx";
import { pdfHref } from "../reports/format.ts";
import type { DerivedStatus } from "./model.ts";

/** One unit bill as the list shows it. */
export interface UnitBillRow {
  id: number;
  station_id: number;
  station: string;
  unit_id: string;
  unit: string;
  /** First word of the tenant's name, or null (not assigned). */
  tenant: string | null;
  energy: string;
  total: string;
  status: DerivedStatus;
  payment: string;
}

/** Props of {@link UnitBills}. */
export interface UnitBillsProps {
  t: Translate;
  rows: UnitBillRow[];
  /** Hidden fields that bring the admin back to the same pickers after a delete. */
  back: Record<string, string>;
}

const PAYMENTS = [
  "paid",
  "pending",
  "overdue",
  "failed",
  "awaiting_spei_transfer",
  "reference_expired",
  "partial",
];

/** The payment status text (Unknown for anything else). */
export function paymentText(t: Translate, status: string): string {
  return t(`billing.payment_status.${PAYMENTS.includes(status) ? status : "unknown"}`);
}

/** The table and the cards. */
export function UnitBills({ t, rows, back }: UnitBillsProps) {
  const C = (k: string) => t(`billing.unit_billing.columns.${k}`);
  const badge = (r: UnitBillRow) => (
    <span className={`badge badge-${r.status.colour}`} data-status={r.status.key}>
      {t(`billing.status.${r.status.key}`)}
    </span>
  );
  const actions = (r: UnitBillRow) => (
    <div className="row-actions">
      <a
        className="btn btn-sm btn-secondary"
        href={`/admin/report/station/${r.station_id}/unit/${encodeURIComponent(r.unit_id)}`}
      >
        {t("billing.unit_billing.actions.view_details")}
      </a>
      {back.period && (
        <LanguageMenu
          t={t}
          small
          label={t("billing.unit_billing.actions.download_report")}
          languages={["en", "es"]}
          href={(language) =>
            pdfHref(r.station_id, { type: "unit", period: back.period, unit: r.unit_id, language })}
        />
      )}
      <Island
        of={ConfirmSubmit}
        props={{
          action: `/admin/units-billing/bills/${r.id}/delete`,
          fields: back,
          label: t("billing.unit_billing.actions.delete"),
          className: "btn btn-sm btn-danger",
          title: t("billing.delete_dialog.title"),
          message: `${t("billing.delete_dialog.message")} (${r.station} · ${r.unit})`,
          confirmLabel: t("billing.delete_dialog.confirm"),
          cancelLabel: t("billing.delete_dialog.cancel"),
        }}
      />
    </div>
  );
  const tenant = (r: UnitBillRow) => r.tenant ?? t("billing.unit_billing.not_assigned");
  return (
    <>
      <div className="card table-wrap table-only">
        <table className="data" data-testid="unit-bills">
          <thead>
            <tr>
              <th scope="col">{C("station")}</th>
              <th scope="col">{C("unit")}</th>
              <th scope="col">{C("tenant")}</th>
              <th scope="col" className="num">{C("energy")}</th>
              <th scope="col" className="num">{C("total_cost")}</th>
              <th scope="col">{C("status")}</th>
              <th scope="col">{C("payment")}</th>
              <th scope="col">{C("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-bill-id={r.id}>
                <td>{r.station}</td>
                <td>{r.unit}</td>
                <td>{tenant(r)}</td>
                <td className="num nowrap">{r.energy}</td>
                <td className="num nowrap">{r.total}</td>
                <td>{badge(r)}</td>
                <td>{r.payment}</td>
                <td>{actions(r)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="cards-list" aria-label={t("billing.unit_billing.title")}>
        {rows.map((r) => (
          <li key={r.id} className="item-card" data-bill-id={r.id}>
            <div className="item-head">
              <strong>{r.station} · {r.unit}</strong>
              {badge(r)}
            </div>
            <dl>
              <dt>{C("tenant")}</dt>
              <dd>{tenant(r)}</dd>
              <dt>{C("energy")}</dt>
              <dd>{r.energy}</dd>
              <dt>{C("total_cost")}</dt>
              <dd>{r.total}</dd>
              <dt>{C("payment")}</dt>
              <dd>{r.payment}</dd>
            </dl>
            {actions(r)}
          </li>
        ))}
      </ul>
    </>
  );
}
