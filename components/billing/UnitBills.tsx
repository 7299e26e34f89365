/** The unit bills of a zone and period: one responsive list (a table, or cards on phones). */
import { type Paging, sortBy } from "../kit/mod.ts";
import { BillActions, BillList } from "./BillList.tsx";
import type { Translate } from "../../services/platform/i18n.ts";
import type { UnitBillRow } from "../../services/billing/lists.ts";
import { formatterOf } from "../../core/format.ts";
import { firstWord, kwhText } from "./model.ts";
import type { InvoiceView } from "../../services/invoices/views.ts";
import { InvoiceLine } from "../invoices/InvoiceLine.tsx";

/** Props of {@link UnitBills}. */
interface UnitBillsProps {
  t: Translate;
  rows: UnitBillRow[];
  /** The page's path (`/admin/units-billing`, `/admin/billing`, ...). */
  base: string;
  /** Hidden fields that bring the admin back to the same pickers after a delete. */
  back: Record<string, string>;
  /** The page shown: sortable headers (the pager is drawn below the list). */
  paging?: Paging;
  /** The bills' invoices (named or global), by bill id (issue 31). */
  invoices?: Map<number, InvoiceView>;
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

/** The list. */
export function UnitBills(props: UnitBillsProps) {
  const { t, base, back, paging } = props;
  const C = (k: string) => t(`billing.unit_billing.columns.${k}`);
  const sort = (k: string) => sortBy(t, paging, k, C(k === "total" ? "total_cost" : k));
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
    <BillActions
      t={t}
      view={{
        href: `/admin/report/station/${r.station_id}/unit/${encodeURIComponent(r.unit_id)}`,
        label: t("billing.unit_billing.actions.view_details"),
      }}
      report={{
        stationId: r.station_id,
        type: "unit",
        unit: r.unit_id,
        label: t("billing.unit_billing.actions.download_report"),
      }}
      remove={r.can_delete
        ? { label: t("billing.unit_billing.actions.delete"), what: `${r.station} · ${r.unit}` }
        : null}
      base={base}
      id={r.id}
      back={back}
    >
      {r.can_record_payment && (
        <a
          className="btn btn-sm btn-secondary"
          href={`${base}/bills/${r.id}/payment?${new URLSearchParams(back)}`}
        >
          {t("billing.payment_record.action")}
        </a>
      )}
    </BillActions>
  );
  const tenant = (r: UnitBillRow) => firstWord(r.tenant) ?? t("billing.unit_billing.not_assigned");
  return (
    <BillList
      {...props}
      kind="unit"
      columns={[
        { label: C("unit"), cell: (r) => r.unit, sort: sort("unit") },
        {
          label: C("tenant"),
          sort: sort("tenant"),
          cell: (r) => (
            <span className="cell-stack">
              {tenant(r)}
              {r.tenancy && (
                <small className="hint cell-note" data-testid="tenancy-part">
                  {t("billing.unit_billing.tenancy_part", r.tenancy)}
                </small>
              )}
            </span>
          ),
        },
        {
          label: C("energy"),
          sort: sort("energy"),
          numeric: true,
          cell: (r) => (
            <span className="cell-stack">
              <span className="nowrap">{kwhText(r.energy_kwh)}</span>
              {r.missing_readings && (
                <span className="badge badge-orange cell-note" data-testid="missing-readings">
                  {t("billing.unit_billing.missing_readings", {
                    days: r.missing_readings.days,
                    of: r.missing_readings.of,
                  })}
                </span>
              )}
              {r.high_consumption?.exceeded && (
                <>
                  {" "}
                  <span
                    className="badge badge-red"
                    data-testid="dac-flag"
                    title={t("billing.unit_billing.dac_title", {
                      average: r.high_consumption.average_kwh,
                      limit: r.high_consumption.limit_kwh,
                    })}
                  >
                    {t("billing.unit_billing.dac_badge")}
                  </span>
                </>
              )}
            </span>
          ),
        },
        {
          label: C("total_cost"),
          sort: sort("total"),
          numeric: true,
          className: "nowrap",
          cell: (r) => formatterOf(t).money(r.total_cost, r.currency),
        },
        { label: C("status"), aside: true, cell: badge, sort: sort("status") },
        {
          label: C("payment"),
          cell: (r) => {
            const inv = props.invoices?.get(r.id);
            if (!inv) return paymentText(t, r);
            return (
              <span className="cell-stack">
                {paymentText(t, r)}
                <InvoiceLine t={t} invoice={inv} area="/admin" />
              </span>
            );
          },
        },
        { label: C("actions"), actions: true, cell: actions },
      ]}
    />
  );
}
