/** The unit bills of a zone and period: a table on desktop, cards on phones. */
import type { Translate } from "../../services/i18n.ts";
import { Island } from "../render.tsx";
import ConfirmSubmit from "../../islands/ConfirmSubmit.tsx";
import { LanguageMenu } from "../reports/LanguageMenu.tsx";
import { pdfHref } from "../reports/format.ts";
import type { UnitBillRow } from "../../services/billing/lists.ts";
import { moneyText } from "../../core/money.ts";
import { firstWord, kwhText } from "./model.ts";

/** Props of {@link UnitBills}. */
export interface UnitBillsProps {
  t: Translate;
  rows: UnitBillRow[];
  /** The page's path (`/admin/units-billing`, `/admin/billing`, ...). */
  base: string;
  /** Hidden fields that bring the admin back to the same pickers after a delete. */
  back: Record<string, string>;
}

/** The payment cell: the state, and the due or payment date; nothing for a draft. */
export function paymentText(t: Translate, r: UnitBillRow): string {
  if (!r.is_finalized) return "—";
  if (r.total_cost === 0) return t("billing.payment_status.nothing_due");
  const state = t(`billing.payment_status.${r.payment_status}`);
  if (r.payment_status === "paid") return r.payment_date ? `${state} · ${r.payment_date}` : state;
  const due = r.payment_due_date
    ? ` · ${t("billing.columns_extra.due_date")} ${r.payment_due_date}`
    : "";
  return `${state}${due}`;
}

/** The table and the cards. */
export function UnitBills({ t, rows, base, back }: UnitBillsProps) {
  const C = (k: string) => t(`billing.unit_billing.columns.${k}`);
  const badge = (r: UnitBillRow) => (
    <>
      <span className={`badge badge-${r.status.colour}`} data-status={r.status.key}>
        {t(`billing.status.${r.status.key}`)}
      </span>
      {!r.is_finalized && (
        <>
          {" "}
          <span className="badge badge-grey" data-status="draft">{t("billing.status.draft")}</span>
        </>
      )}
    </>
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
      {r.can_record_payment && (
        <a
          className="btn btn-sm btn-secondary"
          href={`${base}/bills/${r.id}/payment?${new URLSearchParams(back)}`}
        >
          {t("billing.payment_record.action")}
        </a>
      )}
      {r.can_delete && (
        <Island
          of={ConfirmSubmit}
          props={{
            action: `${base}/bills/${r.id}/delete`,
            fields: back,
            label: t("billing.unit_billing.actions.delete"),
            className: "btn btn-sm btn-danger",
            title: t("billing.delete_dialog.title"),
            message: `${t("billing.delete_dialog.message")} (${r.station} · ${r.unit})`,
            confirmLabel: t("billing.delete_dialog.confirm"),
            cancelLabel: t("billing.delete_dialog.cancel"),
          }}
        />
      )}
    </div>
  );
  const tenant = (r: UnitBillRow) => firstWord(r.tenant) ?? t("billing.unit_billing.not_assigned");
  const energy = (r: UnitBillRow) => kwhText(r.energy_kwh);
  const total = (r: UnitBillRow) => moneyText(r.total_cost, r.currency);
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
                <td className="num nowrap">{energy(r)}</td>
                <td className="num nowrap">{total(r)}</td>
                <td>{badge(r)}</td>
                <td>{paymentText(t, r)}</td>
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
              <dd>{energy(r)}</dd>
              <dt>{C("total_cost")}</dt>
              <dd>{total(r)}</dd>
              <dt>{C("payment")}</dt>
              <dd>{paymentText(t, r)}</dd>
            </dl>
            {actions(r)}
          </li>
        ))}
      </ul>
    </>
  );
}
