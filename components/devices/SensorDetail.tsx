/**
 * A simple sensor detail page (`.../sensor/{sensorId}/data`): the device information and
 * its latest status, with Edit Sensor and Open Shelly Web Interface. The live sensor page
 * (measurements, phases, MQTT troubleshooting, uptime) replaces it later.
 */
import type { Translate } from "../../services/i18n.ts";
import { StatusLabel } from "./status.tsx";

/** What the page shows, already worded. */
export interface SensorDetailView {
  id: number;
  name: string;
  serial_number: string;
  status: string;
  /** Worded last seen. */
  lastSeen: string;
  station: { id: number; name: string };
  station_id: string;
  unit: string;
  tenant: string;
  ip_address: string;
  topic_prefix: string;
  mqtt_username: string;
}

/** Broker port of the meters (MQTT over TLS, spec 000 section 9). */
export const BROKER_TLS_PORT = 8883;

/** The page. */
export function SensorDetail({ t, sensor: s }: { t: Translate; sensor: SensorDetailView }) {
  const S = (k: string, p?: Record<string, string | number>) => t(`devices.sensor_data.${k}`, p);
  const base = `/admin/devices/station/${s.station.id}`;
  const info: [string, string, string?][] = [
    [S("device_info.name"), s.name],
    [S("device_info.serial_number"), s.serial_number, "mono"],
    [S("device_info.station"), s.station.name],
    [S("device_info.station_id"), s.station_id, "mono"],
    [S("device_info.unit"), s.unit],
    [S("device_info.tenant"), s.tenant],
    [S("device_info.ip_address"), s.ip_address || S("no_ip"), "mono"],
    [S("device_info.topic_prefix"), s.topic_prefix, "mono"],
    [S("device_info.mqtt_username"), s.mqtt_username, "mono"],
    [S("device_info.broker_port"), String(BROKER_TLS_PORT)],
  ];
  return (
    <>
      <div className="page-head">
        <div>
          <a className="btn btn-ghost btn-sm" href={`${base}/data`}>← {S("back")}</a>
          <h1 style={{ marginTop: "0.4rem" }}>{s.name}</h1>
        </div>
        <div className="page-actions">
          <a className="btn" href={`${base}/sensor/${s.id}`} data-testid="edit-sensor">
            {S("edit_sensor")}
          </a>
          {s.ip_address
            ? (
              <a
                className="btn btn-secondary"
                href={`http://${s.ip_address}`}
                target="_blank"
                rel="noopener noreferrer"
              >
                {S("open_shelly")}
              </a>
            )
            : (
              <button type="button" className="btn btn-secondary" disabled title={S("no_ip")}>
                {S("open_shelly")}
              </button>
            )}
        </div>
      </div>
      <div className="stats stats-single">
        <div className="stat" data-testid="sensor-status">
          <div className="stat-label">{S("latest_status")}</div>
          <div className="stat-value stat-status">
            <StatusLabel t={t} status={s.status} />
          </div>
          <div className="stat-sub">{s.lastSeen}</div>
        </div>
      </div>
      <section className="card" aria-labelledby="device-info">
        <h2 id="device-info">{S("device_info.title")}</h2>
        <dl className="info-list">
          {info.map(([k, v, cls]) => (
            <div key={k} style={{ display: "contents" }}>
              <dt>{k}</dt>
              <dd className={cls}>{v}</dd>
            </div>
          ))}
        </dl>
      </section>
      <p className="hint" style={{ marginTop: "1rem" }}>{S("live_later")}</p>
    </>
  );
}

/** 'Sensor Not Found' with a button back to the station. */
export function SensorNotFound({ t, stationId }: { t: Translate; stationId: number }) {
  return (
    <section className="card empty" data-testid="sensor-not-found">
      <h1>{t("devices.sensor_data.not_found_title")}</h1>
      <p>{t("devices.sensor_data.not_found_message")}</p>
      <a className="btn btn-secondary" href={`/admin/devices/station/${stationId}/data`}>
        {t("devices.sensor_data.back")}
      </a>
    </section>
  );
}

/** The report pages until reports exist: says so plainly and links back. */
export function ReportUnavailable(
  { t, title, back }: { t: Translate; title: string; back: string },
) {
  return (
    <section className="card empty" data-testid="report-unavailable">
      <h1>{title}</h1>
      <p>{t("devices.report_unavailable.text")}</p>
      <a className="btn btn-secondary" href={back}>{t("devices.report_unavailable.back")}</a>
    </section>
  );
}
