/**
 * The station data page: back, Report, Edit and Delete; the four cards (station status,
 * active sensors, assigned units, customer); the sensors table with phone cards, and the
 * empty state. The status card and the sensors' statuses refresh every 30 s (island).
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { Icon } from "../icons.tsx";
import { Island } from "../render.tsx";
import ConfirmSubmit from "../../islands/ConfirmSubmit.tsx";
import StationStatus from "../../islands/StationStatus.tsx";
import { StatusLabel, statusTexts, timeAgoTexts } from "./status.tsx";
import { stationLinks } from "./StationList.tsx";
import { AddLink, NotFound, ResponsiveList } from "../kit/mod.ts";

/** One sensor row. */
export interface SensorRow {
  id: number;
  name: string;
  status: string;
  serial_number: string;
  /** 'Unit 1 (Tenant)', 'Unknown Unit', 'Not assigned'... already worded. */
  assignment: string;
}

/** What the page shows of the station. */
interface StationDataView {
  id: number;
  name: string;
  serial_number: string;
  station_id: string;
  /** Worded location ('City, State' or a fallback). */
  location: string;
  zone: string | null;
  /** The effective status. */
  status: string;
  last_seen: number | null;
  customer: string | null;
  units: number;
  /** Units a sensor measures. */
  unitsWithSensor: number;
  sensors: SensorRow[];
}

/** Props of {@link StationData}. */
interface StationDataProps {
  t: Translate;
  station: StationDataView;
  /** Worded last seen ('5 min ago', 'Never seen'). */
  lastSeen: string;
  notice?: string;
  failure?: string;
}

/** A Delete button with its confirmation dialog (a page without JavaScript). */
function DeleteDevice(
  { t, action, title, message, confirm, cancel, small }: {
    t: Translate;
    action: string;
    title: string;
    message: string;
    confirm: string;
    cancel: string;
    small?: boolean;
  },
) {
  return (
    <Island
      of={ConfirmSubmit}
      props={{
        action,
        fields: {},
        label: t("devices.station_data.delete"),
        className: `btn btn-danger${small ? " btn-sm" : ""}`,
        title,
        message,
        confirmLabel: confirm,
        cancelLabel: cancel,
      }}
    />
  );
}

/** The page. */
export function StationData({ t, station: s, lastSeen, notice, failure }: StationDataProps) {
  const D = (k: string, p?: Record<string, string | number>) => t(`devices.station_data.${k}`, p);
  const base = `/admin/devices/station/${s.id}`;
  const online = s.sensors.filter((x) => x.status === "online").length;
  const sensorActions = (x: SensorRow) => (
    <div className="row-actions">
      <a className="btn btn-sm btn-secondary" href={`${base}/sensor/${x.id}`}>
        {D("sensors.edit")}
      </a>
      <a className="btn btn-sm btn-secondary" href={`${base}/sensor/${x.id}/data`}>
        {D("sensors.details")}
      </a>
      <DeleteDevice
        t={t}
        small
        action={`${base}/sensor/${x.id}/delete`}
        title={D("delete_sensor_dialog.title")}
        message={D("delete_sensor_dialog.message", { name: x.name })}
        confirm={D("delete_sensor_dialog.confirm")}
        cancel={D("delete_sensor_dialog.cancel")}
      />
    </div>
  );
  return (
    <>
      <div className="page-head">
        <div>
          <a className="btn btn-ghost btn-sm" href="/admin/devices">← {D("back")}</a>
          <h1 style={{ marginTop: "0.4rem" }}>{s.name}</h1>
        </div>
        <div className="page-actions">
          <a className="btn btn-secondary" href={stationLinks(s.id).report}>
            <Icon name="file" /> {D("report")}
          </a>
          <a className="btn btn-secondary" href={`${base}/cfe-bill`} data-testid="station-cfe-bill">
            {t("cfe_bill.admin.link")}
          </a>
          <a className="btn btn-secondary" href={base} data-testid="edit-station">
            {D("edit")}
          </a>
          <DeleteDevice
            t={t}
            action={`${base}/delete`}
            title={D("delete_station_dialog.title")}
            message={s.sensors.length > 0
              ? D("delete_station_dialog.has_sensors")
              : D("delete_station_dialog.message", { name: s.name })}
            confirm={D("delete_station_dialog.confirm")}
            cancel={D("delete_station_dialog.cancel")}
          />
        </div>
      </div>
      <p className="station-meta">
        <span>{D("location")}: {s.location}</span>
        <span>{D("serial", { serial: s.serial_number })}</span>
        <span>{t("devices.station_form.fields.station_id")}: {s.station_id}</span>
        {s.zone && <span>{D("zone", { zone: s.zone })}</span>}
      </p>
      {notice && <div className="alert alert-success notice" role="status">{notice}</div>}
      {failure && (
        <div className="alert alert-error notice" role="alert" data-testid="failure">
          {failure}
        </div>
      )}
      <div className="stats">
        <Island
          of={StationStatus}
          props={{
            stationId: s.id,
            status: s.status,
            lastSeen,
            online,
            total: s.sensors.length,
            texts: {
              status: D("cards.status"),
              activeSensors: D("cards.active_sensors"),
              activeValue: D("cards.active_sensors_value", {
                online: "{online}",
                total: "{total}",
              }),
              statuses: statusTexts(t),
              never: D("cards.never_seen"),
              lastSeen: D("cards.last_seen", { time: "{time}" }),
              ...timeAgoTexts(t),
            },
          }}
        />
        <div className="stat">
          <div className="stat-label">{D("cards.assigned_units")}</div>
          <div className="stat-value" data-testid="units-count">{s.units}</div>
          <div className="stat-sub">{D("units_hint", { assigned: s.unitsWithSensor })}</div>
        </div>
        <div className="stat">
          <div className="stat-label">{D("cards.customer")}</div>
          <div className="stat-value stat-text" data-testid="customer">
            {s.customer ?? D("cards.not_assigned")}
          </div>
        </div>
      </div>
      <section aria-labelledby="sensors-title">
        <div className="section-head" style={{ marginBottom: "0.75rem" }}>
          <h2 id="sensors-title">{D("sensors.title")}</h2>
          {s.sensors.length > 0 && (
            <AddLink href={`${base}/sensor/create`} testId="add-sensor">{D("sensors.add")}</AddLink>
          )}
        </div>
        <ResponsiveList
          label={D("sensors.title")}
          testId="sensors-table"
          rows={s.sensors}
          rowKey={(x) => x.id}
          rowAttrs={(x) => ({ "data-sensor-id": x.id })}
          empty={
            <div className="card empty" data-testid="no-sensors">
              <h3>{D("sensors.empty_title")}</h3>
              <p>{D("sensors.empty_message")}</p>
              <AddLink href={`${base}/sensor/create`} testId="add-first-sensor">
                {D("sensors.add_first")}
              </AddLink>
            </div>
          }
          columns={[
            { label: D("sensors.columns.name"), primary: true, cell: (x) => x.name },
            {
              label: D("sensors.columns.status"),
              aside: true,
              cell: (x) => (
                <span data-sensor-status={x.id}>
                  <StatusLabel t={t} status={x.status} />
                </span>
              ),
            },
            {
              label: D("sensors.columns.serial_number"),
              className: "mono nowrap",
              cell: (x) => x.serial_number,
            },
            { label: D("sensors.columns.assigned_unit"), cell: (x) => x.assignment },
            {
              label: D("sensors.columns.actions"),
              actions: true,
              className: "actions-cell",
              cell: sensorActions,
            },
          ]}
        />
      </section>
    </>
  );
}

/** 'Station Not Found' with a button to /admin/devices. */
export function StationNotFound({ t }: { t: Translate }) {
  return (
    <NotFound
      title={t("devices.sensor_form.station_not_found_title")}
      message={t("devices.station_data.errors.not_found_message")}
      back={{ href: "/admin/devices", label: t("devices.sensor_form.back_to_devices") }}
      testId="station-not-found"
    />
  );
}

/** 'Error Loading Station' with Go Back and Try Again. */
export function StationLoadError(
  { t, message, retry }: { t: Translate; message: string; retry: string },
) {
  return (
    <section className="card empty" role="alert" data-testid="station-load-error">
      <h1>{t("devices.station_data.errors.loading_title")}</h1>
      <p>{message}</p>
      <div className="page-actions" style={{ justifyContent: "center" }}>
        <a className="btn btn-secondary" href="/admin/devices">
          {t("devices.station_data.errors.go_back")}
        </a>
        <a className="btn" href={retry}>{t("devices.station_data.errors.try_again")}</a>
      </div>
    </section>
  );
}
