/**
 * The station list of /admin/devices: a table on desktop and cards on phones with the
 * status dot, station name with city, serial number, customer, units count, payment
 * status, the Report (billing) and Hardware (details) buttons; Add station; search.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { Icon } from "../icons.tsx";
import { StatusDot, StatusLabel } from "./status.tsx";
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
export interface StationListProps {
  t: Translate;
  q: string;
  /** Null when loading the stations failed. */
  stations: StationRow[] | null;
  /** A notice after a change ('deleted'). */
  notice?: string;
}

const PAYMENT_BADGE: Record<PaymentStatus, string> = {
  paid: "badge-green",
  due: "badge-yellow",
  overdue: "badge-red",
  other: "badge-grey",
};

/** The payment status badge. */
function PaymentBadge({ t, status }: { t: Translate; status: PaymentStatus }) {
  return (
    <span className={`badge ${PAYMENT_BADGE[status]}`}>
      {t(`dashboard.payment_status.${status}`)}
    </span>
  );
}

/** The station's report and hardware pages. */
export const stationLinks = (id: number) => ({
  report: `/admin/report/station/${id}`,
  data: `/admin/devices/station/${id}/data`,
});

/** The page. */
export function StationList({ t, q, stations, notice }: StationListProps) {
  const L = (k: string, p?: Record<string, string | number>) => t(`dashboard.station_list.${k}`, p);
  const customer = (s: StationRow) => s.customer ?? L("no_customer");
  const report = (s: StationRow, icon = true) => (
    <a className="btn btn-sm btn-secondary" href={stationLinks(s.id).report}>
      {icon && <Icon name="file" />} {L("report")}
    </a>
  );
  const hardware = (s: StationRow, icon = true) => (
    <a className="btn btn-sm btn-secondary" href={stationLinks(s.id).data}>
      {icon && <Icon name="bolt" />} {L("hardware")}
    </a>
  );
  return (
    <>
      <div className="page-head">
        <h1>{t("devices.devices_page.title")}</h1>
        <div className="page-actions">
          <a className="btn" href="/admin/devices/station/create" data-testid="add-station">
            <Icon name="plus" /> {t("dashboard.admin_dashboard.add_station")}
          </a>
        </div>
      </div>
      {notice && <div className="alert alert-success notice" role="status">{notice}</div>}
      <div className="toolbar">
        <form method="get" action="/admin/devices" className="search" role="search">
          <label htmlFor="devices-search" className="visually-hidden">
            {t("dashboard.search.placeholder")}
          </label>
          <input
            id="devices-search"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={200}
            placeholder={t("dashboard.search.placeholder")}
          />
          <button type="submit" className="btn btn-secondary">{t("common.search")}</button>
          {q && <a className="btn btn-ghost" href="/admin/devices">{t("users.search.clear")}</a>}
        </form>
      </div>
      {stations === null && (
        <div className="alert alert-error" role="alert">
          {t("devices.devices_page.load_failed")}
        </div>
      )}
      {stations && stations.length === 0 && (
        <section className="card empty" data-testid="empty-state">
          <h2>{q ? t("dashboard.search.no_results") : L("empty")}</h2>
          {!q && (
            <a className="btn" href="/admin/devices/station/create">
              {t("dashboard.empty_state.button")}
            </a>
          )}
        </section>
      )}
      {stations && stations.length > 0 && (
        <>
          <div className="card table-wrap table-only">
            <table className="data" data-testid="stations-table">
              <thead>
                <tr>
                  <th scope="col">{L("columns.status")}</th>
                  <th scope="col">{L("columns.station")}</th>
                  <th scope="col">{L("columns.serial_number")}</th>
                  <th scope="col">{L("columns.customer")}</th>
                  <th scope="col">{L("columns.units")}</th>
                  <th scope="col">{L("columns.payment_status")}</th>
                  <th scope="col">{L("columns.billing")}</th>
                  <th scope="col">{L("columns.details")}</th>
                </tr>
              </thead>
              <tbody>
                {stations.map((s) => (
                  <tr key={s.id} data-station-id={s.id}>
                    <td>
                      <StatusDot t={t} status={s.status} />
                    </td>
                    <td>
                      <div className="station-cell">
                        <a href={stationLinks(s.id).data}>{s.name}</a>
                        <span className="muted">{s.city}</span>
                      </div>
                    </td>
                    <td className="mono nowrap">{s.serial_number}</td>
                    <td>{customer(s)}</td>
                    <td className="nowrap">{L("units_count", { count: s.units })}</td>
                    <td>
                      <PaymentBadge t={t} status={s.payment_status} />
                    </td>
                    <td>{report(s, false)}</td>
                    <td>{hardware(s, false)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="cards-list" aria-label={L("title")}>
            {stations.map((s) => (
              <li key={s.id} className="item-card" data-station-id={s.id}>
                <div className="item-head">
                  <div className="station-cell">
                    <a href={stationLinks(s.id).data}>{s.name}</a>
                    <span className="muted">{s.city}</span>
                  </div>
                  <StatusLabel t={t} status={s.status} />
                </div>
                <dl>
                  <dt>{L("columns.serial_number")}</dt>
                  <dd className="mono">{s.serial_number}</dd>
                  <dt>{L("columns.customer")}</dt>
                  <dd>{customer(s)}</dd>
                  <dt>{L("columns.units")}</dt>
                  <dd>{L("units_count", { count: s.units })}</dd>
                  <dt>{L("columns.payment_status")}</dt>
                  <dd>
                    <PaymentBadge t={t} status={s.payment_status} />
                  </dd>
                </dl>
                <div className="row-actions">
                  {report(s)}
                  {hardware(s)}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
