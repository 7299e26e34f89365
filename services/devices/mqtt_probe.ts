/**
 * Test MQTT Connection: signs in to the broker the meters use, as the sensor (its MQTT
 * username, its opened password and, over TLS, its client certificate), subscribes to its
 * own topics, and answers success or the broker's reason.
 *
 * The broker: see {@link meterBroker}.
 */
import type { Deps } from "../deps.ts";
import type { Translate } from "../platform/i18n.ts";
import { getStationSensor } from "../../db/devices.ts";
import { deviceMqttPassword } from "./broker_accounts.ts";
import { sensorCertificate } from "./certificates.ts";
import {
  type ClientTls,
  type ConnectFailure,
  connectOnce,
  endClient,
  subscribeGranted,
} from "../platform/mqtt_connect.ts";

/** Why a test failed, beyond what connecting answers. */
type ProbeFailure =
  | ConnectFailure
  | "no_password"
  | "no_username"
  | "topics_refused"
  | "certificate_unavailable";

/** The outcome of a test. */
export type ProbeResult =
  | { ok: true; broker: string }
  | { ok: false; broker: string; reason: ProbeFailure; detail: string };

/** Where the meters connect: URL, `host:port` for the words, TLS, and the name to verify. */
interface MeterBroker {
  url: string;
  address: string;
  tls: boolean;
  /** The server name to check the broker's certificate against, when not the URL's host. */
  servername?: string;
}

/**
 * The broker the meters use: MQTT_URL (`mqtts://` on 8883 unless it names a port), else
 * the embedded broker on this machine — its TLS port when TLS is on (the certificate
 * names the configured hosts), else its plain port.
 */
export function meterBroker(deps: Deps): MeterBroker {
  const m = deps.config.mqtt;
  if (m.url) {
    const u = new URL(m.url);
    const tls = /^(mqtts|tls|ssl):$/.test(u.protocol);
    const port = u.port || (tls ? "8883" : "1883");
    const host = u.hostname;
    return { url: `${tls ? "mqtts" : "mqtt"}://${host}:${port}`, address: `${host}:${port}`, tls };
  }
  if (m.tlsPort > 0) {
    const hosts = m.tlsHosts ?? [];
    const servername = hosts.includes("127.0.0.1") ? undefined : hosts[0];
    return {
      url: `mqtts://127.0.0.1:${m.tlsPort}`,
      address: `127.0.0.1:${m.tlsPort}`,
      tls: true,
      ...(servername ? { servername } : {}),
    };
  }
  return { url: `mqtt://127.0.0.1:${m.port}`, address: `127.0.0.1:${m.port}`, tls: false };
}

/** What the test needs to know of the sensor. */
interface ProbeTarget {
  username: string;
  password: string | null;
  prefix: string;
  /** The client certificate and key (loaded only for TLS). */
  certificate: () => Promise<{ cert_pem: string; key_pem: string }>;
}

/** Runs the test against `broker` for `target`. */
export async function probe(
  deps: Deps,
  target: ProbeTarget,
  timeoutMs = 5_000,
): Promise<ProbeResult> {
  const broker = meterBroker(deps);
  const fail = (reason: ProbeFailure, detail: string): ProbeResult => ({
    ok: false,
    broker: broker.address,
    reason,
    detail,
  });
  if (!target.username) return fail("no_username", "the sensor has no MQTT username");
  if (target.password === null) {
    return fail("no_password", "the password was set before it was kept; set it again");
  }
  let tls: ClientTls | undefined;
  if (broker.tls) {
    try {
      const c = await target.certificate();
      tls = { ca: deps.pki.caPem, cert: c.cert_pem, key: c.key_pem };
      if (broker.servername) tls.servername = broker.servername;
    } catch (e) {
      return fail("certificate_unavailable", String(e));
    }
  }
  const res = await connectOnce({
    url: broker.url,
    username: target.username,
    password: target.password,
    clientId: `${target.username}-test-${crypto.randomUUID().slice(0, 6)}`.slice(0, 64),
    tls,
    timeoutMs,
  });
  if (!res.ok) return fail(res.reason, res.detail);
  try {
    if (!(await subscribeGranted(res.client, `${target.prefix}/#`))) {
      return fail("topics_refused", `subscribing to ${target.prefix}/# was refused`);
    }
    return { ok: true, broker: broker.address };
  } catch (e) {
    return fail("closed", String(e));
  } finally {
    await endClient(res.client);
  }
}

/**
 * Tests the connection of sensor `sensorId` of station `stationId`; null when there is no
 * such sensor there.
 */
export async function testSensorConnection(
  deps: Deps,
  stationId: number,
  sensorId: number,
): Promise<ProbeResult | null> {
  const d = await getStationSensor(deps.kv, stationId, sensorId);
  if (!d) return null;
  const result = await probe(deps, {
    username: d.config.mqtt.username,
    password: await deviceMqttPassword(deps, d),
    prefix: d.config.mqtt.topic_prefix.replace(/\/+$/, ""),
    certificate: () => sensorCertificate(deps, sensorId),
  });
  deps.log.log(result.ok ? "info" : "warn", "MQTT connection test", {
    sensor: sensorId,
    ok: result.ok,
    ...(result.ok ? {} : { reason: result.reason, detail: result.detail }),
  });
  return result;
}

/** The result in words: the success line, or 'MQTT Connection test failed: {reason}'. */
export function probeMessage(t: Translate, r: ProbeResult): string {
  if (r.ok) return t("mqtt_test.success", { broker: r.broker });
  const key = `mqtt_test.reasons.${r.reason}`;
  const words = t(key, { detail: r.detail });
  return t("mqtt_test.failed", {
    reason: words === key ? t("mqtt_test.unknown_error") : words,
  });
}
