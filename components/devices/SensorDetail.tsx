/**
 * The sensor data page (`.../sensor/{sensorId}/data`, spec 000 sections 2, 3 and 9): Edit
 * Sensor, Open Shelly Web Interface, the live cards (status, power with apparent power,
 * current, total energy, phases A, B, C) refreshed every 15 s by the SensorLive island, the
 * 'MQTT Connection Issue' panel while the sensor is not online, Device Information and
 * Monthly Uptime Statistics. Everything is rendered on the server first.
 */
import type { ReactNode } from "react";
import type { Translate } from "../../services/platform/i18n.ts";
import type { CertificateView } from "./sensor/CertificatePanel.tsx";
import { Island } from "../render.tsx";
import SensorLive from "../../islands/SensorLive.tsx";
import { statusTexts, timeAgoTexts } from "./status.tsx";
import { MqttIssue } from "./sensor/MqttIssue.tsx";
import { UptimeCard, type UptimeCardProps } from "./sensor/UptimeCard.tsx";
import { TenancyCard, type TenancyCardProps } from "./sensor/TenancyCard.tsx";
import { Card, NotFound } from "../kit/mod.ts";
import type { MqttConnection } from "../../core/devices.ts";

/** What the page shows, already worded. */
interface SensorDetailView {
  id: number;
  name: string;
  serial_number: string;
  status: string;
  /** Worded last seen ("Last seen: 5 min ago"). */
  lastSeen: string;
  /** Local date and time of the last message, or null when none arrived. */
  lastSeenAt: string | null;
  /** Local date and time of creation. */
  created: string;
  /** Local date and time of the last change, when the sensor was edited after its creation. */
  updated: string | null;
  /** The MQTT connection: unknown, connected or disconnected. */
  connection: MqttConnection;
  station: { id: number; name: string };
  station_id: string;
  unit: string;
  tenant: string;
  ip_address: string;
  topic_prefix: string;
  mqtt_username: string;
  /** Whether MQTT username and password are set. */
  credentialsSet: boolean;
  /** The broker as meters reach it, `host:port`. */
  broker: string;
  /** Latest values by measurement key, or null when they could not be read. */
  measurements: Record<string, number> | null;
  /** Port of MQTT over TLS (null when off) and whether client certificates are required. */
  tls?: { port: number | null; requireClientCert: boolean };
  /** The sensor's certificates in the 'MQTT Connection Issue' panel. */
  certificate?: CertificateView;
}

/** Props of the page. */
interface SensorDetailProps {
  t: Translate;
  locale: string;
  sensor: SensorDetailView;
  uptime: Omit<UptimeCardProps, "t" | "locale">;
  /** The Test MQTT Connection button and its result, shown in the panel after Verify. */
  testConnection?: ReactNode;
  /** The unit's tenancy history and move forms (a sensor measuring a unit). */
  tenancy?: Omit<TenancyCardProps, "t">;
  /** Meter History, Manual Readings and Replace Meter (`MeterCards`), below the grid. */
  meters?: ReactNode;
}

/** The page. */
export function SensorDetail(
  { t, locale, sensor: s, uptime, testConnection, tenancy, meters }: SensorDetailProps,
) {
  const S = (k: string, p?: Record<string, string | number>) => t(`devices.sensor_data.${k}`, p);
  const base = `/admin/devices/station/${s.station.id}`;
  const info: [string, string, string?][] = [
    [S("device_info.name"), s.name],
    [S("device_info.serial_number"), s.serial_number, "mono"],
    [S("device_info.station"), s.station.name],
    [S("device_info.unit"), s.unit],
    [S("device_info.tenant"), s.tenant],
    [S("device_info.ip_address"), s.ip_address || S("no_ip"), "mono"],
    [S("device_info.topic_prefix"), s.topic_prefix, "mono"],
    [S("device_info.station_id"), s.station_id, "mono"],
    [S("device_info.last_seen"), s.lastSeenAt ?? t("devices.station_data.cards.never_seen")],
    [S("mqtt_issue.connection_status.label"), S(`mqtt_issue.connection_status.${s.connection}`)],
    [S("device_info.created"), s.created],
    ...(s.updated ? [[S("device_info.edited"), s.updated] as [string, string]] : []),
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
          {s.ip_address && (
            <a
              className="btn btn-secondary"
              href={`http://${s.ip_address}`}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="open-shelly"
            >
              {S("open_shelly")} ↗
            </a>
          )}
        </div>
      </div>
      {s.measurements === null && (
        <div className="alert alert-error" role="alert" data-testid="sensor-failed">
          {S("errors.load_failed")}
        </div>
      )}
      <div className="sensor-live">
        <Island
          of={SensorLive}
          props={{
            sensorId: s.id,
            locale,
            status: s.status,
            lastSeen: s.lastSeen,
            measurements: s.measurements ?? {},
            texts: {
              status: S("cards.status"),
              power: S("cards.power"),
              apparentPower: S("cards.apparent_power", { value: "{value}" }),
              current: S("cards.current"),
              totalEnergy: S("cards.total_energy"),
              phases: [S("phases.phase_a"), S("phases.phase_b"), S("phases.phase_c")],
              phasePower: S("phases.power"),
              phaseCurrent: S("phases.current"),
              phaseVoltage: S("phases.voltage"),
              phasePf: S("phases.power_factor"),
              phaseEnergy: S("phases.energy"),
              statuses: statusTexts(t),
              never: t("devices.station_data.cards.never_seen"),
              lastSeen: S("cards.last_seen", { time: "{time}" }),
              ...timeAgoTexts(t),
              loadFailed: S("errors.load_failed"),
              noReadings: S("no_readings"),
            },
          }}
        />
      </div>
      {s.status !== "online" && (
        <MqttIssue
          t={t}
          server={s.broker}
          clientId={s.serial_number.toLowerCase()}
          username={s.mqtt_username}
          topicPrefix={s.topic_prefix}
          credentialsSet={s.credentialsSet}
          ipSet={s.ip_address !== ""}
          lastMessage={s.lastSeenAt}
          tls={s.tls}
          certificate={s.certificate}
          testConnection={testConnection}
        />
      )}
      <div className="sensor-grid">
        <Card title={S("device_info.title")} headingId="device-info" data-testid="device-info">
          <dl className="info-list">
            {info.map(([k, v, cls]) => (
              <div key={k} style={{ display: "contents" }}>
                <dt>{k}</dt>
                <dd className={cls}>{v}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <UptimeCard t={t} locale={locale} {...uptime} />
        {tenancy && <TenancyCard t={t} {...tenancy} />}
      </div>
      {meters}
    </>
  );
}

/** 'Sensor Not Found' with a button back to the station. */
export function SensorNotFound({ t, stationId }: { t: Translate; stationId: number }) {
  return (
    <NotFound
      title={t("devices.sensor_data.not_found_title")}
      message={t("devices.sensor_data.not_found_message")}
      back={{
        href: `/admin/devices/station/${stationId}/data`,
        label: t("devices.sensor_data.back"),
      }}
      testId="sensor-not-found"
    />
  );
}
