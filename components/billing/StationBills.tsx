/** The customer (station) bills of a zone and period: a table on desktop, cards on phones. */
import type { Translate } from "../../services/platform/i18n.ts";
import { Island } from "../render.tsx";
import ConfirmSubmit from "../../islands/ConfirmSubmit.tsx";
import { LanguageMenu } from "../reports/LanguageMenu.tsx";
import { pdfHref } from "../reports/format.ts";

/** One customer bill as the list shows it. */
export interface StationBillRow {
  id: number;
  station_id: number;
  kind: "monthly" | "bimonthly";
  period: string;
  station: string;
  /** First word of the customer's name, or null (not assigned). */
  customer: string | null;
  energy: string;
  commission: string;
  fee: string;
  tax: string;
  total: string;
  finalized: boolean;
}

/** Props of {@link StationBills}. */
export interface StationBillsProps {
  t: Translate;
  rows: StationBillRow[];
  back: Record<string, string>;
}

/** The table and the cards. */
export function StationBills({ t, rows, back }: StationBillsProps) {
  const C = (k: string) => t(`billing.station_billing.columns.${k}`);
  const badge = (r: StationBillRow) => (
    <span
      className={`badge badge-${r.finalized ? "green" : "grey"}`}
      data-status={r.finalized ? "finalized" : "draft"}
    >
      {t(`billing.status.${r.finalized ? "finalized" : "draft"}`)}
    </span>
  );
  const actions = (r: StationBillRow) => (
    <div className="row-actions">
      <a className="btn btn-sm btn-secondary" href={`/admin/report/station/${r.station_id}`}>
        {t("billing.station_billing.actions.view")}
      </a>
      {back.period && (
        <LanguageMenu
          t={t}
          small
          label={t("billing.station_billing.actions.download_customer_report")}
          languages={["en", "es"]}
          href={(language) =>
            pdfHref(r.station_id, { type: "customer", period: back.period, language })}
        />
      )}
      <Island
        of={ConfirmSubmit}
        props={{
          action: `/admin/stations-billing/bills/${r.id}/delete`,
          fields: back,
          label: t("billing.station_billing.actions.delete"),
          className: "btn btn-sm btn-danger",
          title: t("billing.delete_dialog.title"),
          message: `${t("billing.delete_dialog.message")} (${r.station} · ${r.period})`,
          confirmLabel: t("billing.delete_dialog.confirm"),
          cancelLabel: t("billing.delete_dialog.cancel"),
        }}
      />
    </div>
  );
  const customer = (r: StationBillRow) => r.customer ?? t("billing.station_billing.not_assigned");
  const kind = (r: StationBillRow) => t(`billing.billing_types.${r.kind}`);
  return (
    <>
      <div className="card table-wrap table-only">
        <table className="data" data-testid="station-bills">
          <thead>
            <tr>
              <th scope="col">{C("type")}</th>
              <th scope="col">{C("period")}</th>
              <th scope="col">{C("station")}</th>
              <th scope="col">{C("customer")}</th>
              <th scope="col" className="num">{C("energy")}</th>
              <th scope="col" className="num">{C("commission")}</th>
              <th scope="col" className="num">{C("fee")}</th>
              <th scope="col" className="num">{C("tax")}</th>
              <th scope="col" className="num">{C("total_amount")}</th>
              <th scope="col">{C("status")}</th>
              <th scope="col">{C("actions")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-bill-id={r.id}>
                <td>{kind(r)}</td>
                <td className="nowrap">{r.period}</td>
                <td>{r.station}</td>
                <td>{customer(r)}</td>
                <td className="num nowrap">{r.energy}</td>
                <td className="num nowrap">{r.commission}</td>
                <td className="num nowrap">{r.fee}</td>
                <td className="num nowrap">{r.tax}</td>
                <td className="num nowrap">{r.total}</td>
                <td>{badge(r)}</td>
                <td>{actions(r)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="cards-list" aria-label={t("billing.station_billing.title")}>
        {rows.map((r) => (
          <li key={r.id} className="item-card" data-bill-id={r.id}>
            <div className="item-head">
              <strong>{r.station}</strong>
              {badge(r)}
            </div>
            <dl>
              <dt>{C("type")}</dt>
              <dd>{kind(r)} · {r.period}</dd>
              <dt>{C("customer")}</dt>
              <dd>{customer(r)}</dd>
              <dt>{C("energy")}</dt>
              <dd>{r.energy}</dd>
              <dt>{C("commission")}</dt>
              <dd>{r.commission}</dd>
              <dt>{C("fee")}</dt>
              <dd>{r.fee}</dd>
              <dt>{C("tax")}</dt>
              <dd>{r.tax}</dd>
              <dt>{C("total_amount")}</dt>
              <dd>{r.total}</dd>
            </dl>
            {actions(r)}
          </li>
        ))}
      </ul>
    </>
  );
}
