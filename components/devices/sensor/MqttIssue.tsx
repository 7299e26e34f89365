/**
 * The 'MQTT Connection Issue' panel of a sensor that is not online: the manual setup steps
 * in the Shelly web interface (reference shelly-pro-3em-mqtt.md section 1.2) and the
 * checklist of what the portal knows about the sensor's configuration, then the sensor's
 * certificates (downloads, status, Renew, Verify) and the connection test's slot.
 */
import type { ReactNode } from "react";
import type { Translate } from "../../../services/platform/i18n.ts";
import { CertificatePanel, type CertificateView } from "./CertificatePanel.tsx";

/** What the panel shows. */
interface MqttIssueProps {
  t: Translate;
  /** The broker as the meter must be given it, `host:port`. */
  server: string;
  clientId: string;
  username: string;
  topicPrefix: string;
  credentialsSet: boolean;
  ipSet: boolean;
  /** Worded time of the last message, or null when none arrived. */
  lastMessage: string | null;
  /** Port of MQTT over TLS (null when off) and whether it requires client certificates. */
  tls?: { port: number | null; requireClientCert: boolean };
  /** The sensor's certificates; absent: the certificate part is not shown. */
  certificate?: CertificateView;
  /** The Test MQTT Connection button and its result, rendered after Verify Certificates. */
  testConnection?: ReactNode;
}

/** The panel. */
export function MqttIssue(p: MqttIssueProps) {
  const M = (k: string, v?: Record<string, string | number>) =>
    p.t(`devices.sensor_data.mqtt_issue.${k}`, v);
  const C = (k: string, v?: Record<string, string | number>) => p.t(`certificates.${k}`, v);
  const check: [string, boolean, string?][] = [
    [M("config_status.credentials"), p.credentialsSet],
    [M("config_status.ip_address"), p.ipSet],
    [M("config_status.topic_prefix"), p.topicPrefix !== ""],
    ...(p.certificate?.status
      ? [[M("config_status.certificates"), p.certificate.status.valid] as [string, boolean]]
      : []),
    [
      M("config_status.last_message"),
      p.lastMessage !== null,
      p.lastMessage ?? M("config_status.no_message"),
    ],
  ];
  return (
    <section
      className="card mqtt-issue"
      aria-labelledby="mqtt-issue"
      data-mqtt-issue
      data-testid="mqtt-issue"
    >
      <h2 id="mqtt-issue">⚠ {M("title")}</h2>
      <p>{M("description")}</p>
      <div className="mqtt-issue-grid">
        <div>
          <h3>{M("manual_setup_title")}</h3>
          <ol className="setup-steps">
            <li>{M("shelly_steps.open")}</li>
            <li>{M("shelly_steps.settings")}</li>
            <li>
              {M("shelly_steps.server")} <code data-testid="mqtt-server">{p.server}</code>
            </li>
            <li>
              {M("shelly_steps.client_id")} <code>{p.clientId}</code>
            </li>
            <li>
              {M("shelly_steps.user")} <code>{p.username || "—"}</code>
            </li>
            <li>
              {M("shelly_steps.prefix")} <code data-testid="mqtt-prefix">{p.topicPrefix}</code>
            </li>
            {p.tls && (
              <li data-testid="tls-step">
                {p.tls.port === null
                  ? C("setup.tls_off")
                  : C("setup.tls_port", { port: p.tls.port })}
              </li>
            )}
            {p.tls?.port != null && <li>{C("setup.upload")}</li>}
            {p.tls?.port != null && p.tls.requireClientCert && (
              <li>{C("setup.client_cert_required")}</li>
            )}
            <li>{M("shelly_steps.rpc_ntf")}</li>
            <li>{M("shelly_steps.status_ntf")}</li>
            <li>{M("shelly_steps.save")}</li>
          </ol>
        </div>
        <div>
          <h3>{M("config_status.title")}</h3>
          <ul className="checklist" data-testid="checklist">
            {check.map(([label, ok, detail]) => (
              <li key={label} data-ok={ok ? "yes" : "no"}>
                <span
                  className={`check-mark ${ok ? "check-ok" : "check-pending"}`}
                  aria-hidden="true"
                >
                  {ok ? "✓" : "•"}
                </span>
                <span>
                  {label}:{" "}
                  <strong>
                    {detail ?? (ok ? M("config_status.done") : M("config_status.pending"))}
                  </strong>
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
      {p.certificate && (
        <CertificatePanel t={p.t} view={p.certificate} testConnection={p.testConnection} />
      )}
      {!p.certificate && p.testConnection}
    </section>
  );
}
