/** The station bills of a zone and period: one responsive list (a table, or cards on phones). */
import { type Paging, sortBy } from "../kit/mod.ts";
import { BillActions, BillList } from "./BillList.tsx";
import type { Translate } from "../../services/platform/i18n.ts";
import type { InvoiceView } from "../../services/invoices/views.ts";
import { InvoiceLine } from "../invoices/InvoiceLine.tsx";

/** One customer bill as the list shows it. */
interface StationBillRow {
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
interface StationBillsProps {
  t: Translate;
  rows: StationBillRow[];
  /** The page's path (`/admin/stations-billing`, `/admin/customer-billing`, ...). */
  base: string;
  back: Record<string, string>;
  /** The page shown: sortable headers (the pager is drawn below the list). */
  paging?: Paging;
  /** The bills' invoices to their owners, by bill id (issue 31). */
  invoices?: Map<number, InvoiceView>;
}

/** The list. */
export function StationBills(props: StationBillsProps) {
  const { t, base, back, paging } = props;
  const C = (k: string) => t(`billing.station_billing.columns.${k}`);
  const sort = (k: string) => sortBy(t, paging, k, C(k === "total" ? "total_amount" : k));
  const badge = (r: StationBillRow) => (
    <span
      className={`badge badge-${r.finalized ? "green" : "grey"}`}
      data-status={r.finalized ? "finalized" : "draft"}
    >
      {t(`billing.status.${r.finalized ? "finalized" : "draft"}`)}
    </span>
  );
  const actions = (r: StationBillRow) => (
    <BillActions
      t={t}
      view={{
        href: `/admin/report/station/${r.station_id}`,
        label: t("billing.station_billing.actions.view"),
      }}
      report={{
        stationId: r.station_id,
        type: "customer",
        label: t("billing.station_billing.actions.download_customer_report"),
      }}
      remove={{
        label: t("billing.station_billing.actions.delete"),
        what: `${r.station} · ${r.period}`,
      }}
      base={base}
      id={r.id}
      back={back}
    />
  );
  const customer = (r: StationBillRow) => {
    const name = r.customer ?? t("billing.station_billing.not_assigned");
    const inv = props.invoices?.get(r.id);
    if (!inv) return name;
    return (
      <span className="cell-stack">
        {name}
        <InvoiceLine t={t} invoice={inv} area="/admin" />
      </span>
    );
  };
  const kind = (r: StationBillRow) => t(`billing.billing_types.${r.kind}`);
  return (
    <BillList
      {...props}
      kind="station"
      columns={[
        { label: C("type"), cell: kind },
        { label: C("period"), cell: (r) => r.period },
        { label: C("customer"), cell: customer, sort: sort("customer") },
        { label: C("energy"), numeric: true, cell: (r) => r.energy, sort: sort("energy") },
        { label: C("commission"), numeric: true, cell: (r) => r.commission },
        { label: C("fee"), numeric: true, cell: (r) => r.fee },
        { label: C("tax"), numeric: true, cell: (r) => r.tax },
        { label: C("total_amount"), numeric: true, cell: (r) => r.total, sort: sort("total") },
        { label: C("status"), aside: true, cell: badge },
        { label: C("actions"), actions: true, cell: actions },
      ]}
    />
  );
}
