/**
 * The 'MQTT Connection Issue' panel of a sensor that is not online: the manual setup steps
 * in the Shelly web interface (reference shelly-pro-3em-mqtt.md section 1.2) and the
 * checklist of what the portal knows about the sensor's configuration.
 */
import type { Translate } from "../../../services/i18n.ts";

/** What the panel shows. */
export interface MqttIssueProps {
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
}

/** The panel. */
export function MqttIssue(p: MqttIssueProps) {
  const M = (k: string, v?: Record<string, string | number>) =>
    p.t(`devices.sensor_data.mqtt_issue.${k}`, v);
  const check: [string, boolean, string?][] = [
    [M("config_status.credentials"), p.credentialsSet],
    [M("config_status.ip_address"), p.ipSet],
    [M("config_status.topic_prefix"), p.topicPrefix !== ""],
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
    </section>
  );
}
