/**
 * The station list of /admin/devices: one responsive list (a table on desktop, cards on
 * phones) with the status dot, station name with city, serial number, customer, units
 * count, payment status, the Report (billing) and Hardware (details) buttons; Add station;
 * search.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { Icon } from "../icons.tsx";
import { asStatus, StatusDot } from "./status.tsx";
import {
  AddLink,
  type BadgeTone,
  Card,
  FormError,
  PageHeader,
  PagerOf,
  type Paging,
  ResponsiveList,
  SearchForm,
  sortBy,
  StatusBadge,
} from "../kit/mod.ts";
import type { StationSort } from "../../services/devices/lists.ts";
import type { PaymentStatus } from "../../core/devices.ts";

/** One station as the list shows it. */
export interface StationRow {
  id: number;
  name: string;
  /** The city, or the fallback text ('No city specified', 'No location'). */
  city: string;
  serial_number: string;
  /** The customer's name, or null when none is assigned. */
  customer: string | null;
  units: number;
  payment_status: PaymentStatus;
  /** The effective status. */
  status: string;
}

/** Props of {@link StationList}. */
interface StationListProps {
  t: Translate;
  q: string;
  /** Null when loading the stations failed. */
  stations: StationRow[] | null;
  /** A notice after a change ('deleted'). */
  notice?: string;
  /** The page shown of a longer list, its pager and sortable headers. */
  paging?: Paging<StationSort>;
  /** Where the search form goes (default `/admin/devices`); false: no search form. */
  searchAction?: string | false;
}

const PAYMENT_BADGE: Record<PaymentStatus, BadgeTone> = {
  paid: "green",
  due: "yellow",
  overdue: "red",
  other: "grey",
};

/** The payment status badge. */
function PaymentBadge({ t, status }: { t: Translate; status: PaymentStatus }) {
  return (
    <StatusBadge tone={PAYMENT_BADGE[status]}>
      {t(`dashboard.payment_status.${status}`)}
    </StatusBadge>
  );
}

/** A button's icon, shown on phone cards only (the table's buttons are text). */
function CardIcon({ name }: { name: "file" | "bolt" }) {
  return (
    <span className="rl-card-only">
      <Icon name={name} />
    </span>
  );
}

/** The status dot, with the status word beside it on phone cards. */
function StatusCell({ t, status }: { t: Translate; status: string }) {
  return (
    <span className="status-label">
      <StatusDot t={t} status={status} />
      <span className="rl-card-only" aria-hidden="true">
        {t(`devices.status.${asStatus(status)}`)}
      </span>
    </span>
  );
}

/** The station's report and hardware pages. */
export const stationLinks = (id: number) => ({
  report: `/admin/report/station/${id}`,
  data: `/admin/devices/station/${id}/data`,
});

/** The page. */
export function StationList(
  { t, q, stations, notice, paging, searchAction = "/admin/devices" }: StationListProps,
) {
  const L = (k: string, p?: Record<string, string | number>) => t(`dashboard.station_list.${k}`, p);
  const customer = (s: StationRow) => s.customer ?? L("no_customer");
  const report = (s: StationRow) => (
    <a className="btn btn-sm btn-secondary" href={stationLinks(s.id).report}>
      <CardIcon name="file" /> {L("report")}
    </a>
  );
  const hardware = (s: StationRow) => (
    <a className="btn btn-sm btn-secondary" href={stationLinks(s.id).data}>
      <CardIcon name="bolt" /> {L("hardware")}
    </a>
  );
  return (
    <>
      <PageHeader
        title={t("devices.devices_page.title")}
        actions={
          <AddLink href="/admin/devices/station/create" testId="add-station">
            {t("dashboard.admin_dashboard.add_station")}
          </AddLink>
        }
      />
      {notice && <div className="alert alert-success notice" role="status">{notice}</div>}
      {searchAction && (
        <div className="toolbar">
          <SearchForm
            action={searchAction}
            id="devices-search"
            label={t("dashboard.search.placeholder")}
            placeholder={t("dashboard.search.placeholder")}
            q={q}
            submit={t("common.search")}
            clear={t("users.search.clear")}
          />
        </div>
      )}
      {stations === null && (
        <FormError notice={false}>{t("devices.devices_page.load_failed")}</FormError>
      )}
      {stations && (
        <ResponsiveList
          label={L("title")}
          testId="stations-table"
          rows={stations}
          rowKey={(s) => s.id}
          rowAttrs={(s) => ({ "data-station-id": s.id })}
          empty={
            <Card
              title={q ? t("dashboard.search.no_results") : L("empty")}
              className="empty"
              data-testid="empty-state"
            >
              {!q && (
                <a className="btn" href="/admin/devices/station/create">
                  {t("dashboard.empty_state.button")}
                </a>
              )}
            </Card>
          }
          columns={[
            {
              label: L("columns.status"),
              aside: true,
              cell: (s) => <StatusCell t={t} status={s.status} />,
            },
            {
              label: L("columns.station"),
              primary: true,
              sort: sortBy(t, paging, "name", L("columns.station")),
              cell: (s) => (
                <div className="station-cell">
                  <a href={stationLinks(s.id).data}>{s.name}</a>
                  <span className="muted">{s.city}</span>
                </div>
              ),
            },
            {
              label: L("columns.serial_number"),
              className: "mono nowrap",
              sort: sortBy(t, paging, "serial", L("columns.serial_number")),
              cell: (s) => s.serial_number,
            },
            {
              label: L("columns.customer"),
              cell: customer,
              sort: sortBy(t, paging, "customer", L("columns.customer")),
            },
            {
              label: L("columns.units"),
              sort: sortBy(t, paging, "units", L("columns.units")),
              className: "nowrap",
              cell: (s) => L("units_count", { count: s.units }),
            },
            {
              label: L("columns.payment_status"),
              cell: (s) => <PaymentBadge t={t} status={s.payment_status} />,
            },
            { label: L("columns.billing"), actions: true, cell: report },
            { label: L("columns.details"), actions: true, cell: hardware },
          ]}
        />
      )}
      {stations && paging && <PagerOf t={t} label={L("title")} paging={paging} />}
    </>
  );
}
