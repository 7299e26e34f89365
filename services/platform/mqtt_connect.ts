/**
 * One MQTT connection attempt (no reconnects) that answers either the connected client or
 * why the broker or the network refused it, as a reason code the pages word in the user's
 * language: CONNACK return codes (MQTT 3.1.1 and 5), TLS handshake failures, timeouts and
 * unreachable hosts. Used by Test MQTT Connection and the dynamic-security client.
 */
import mqtt, { type MqttClient } from "mqtt";

/** Why a connection attempt failed. */
export type ConnectFailure =
  | "bad_credentials"
  | "not_authorized"
  | "client_id_rejected"
  | "server_unavailable"
  | "protocol_refused"
  | "refused"
  | "tls_unknown_ca"
  | "tls_certificate_required"
  | "tls_certificate_refused"
  | "tls_server_untrusted"
  | "tls_failed"
  | "unreachable"
  | "closed"
  | "timeout";

/** TLS material of a connection: the CA that signs the broker, and the client's own pair. */
export interface ClientTls {
  ca: string;
  cert?: string;
  key?: string;
  /** The name the broker's certificate must carry, when not the URL's host. */
  servername?: string;
}

/** What {@link connectOnce} needs. */
interface ConnectOptions {
  /** `mqtt://host:port` or `mqtts://host:port`. */
  url: string;
  username: string;
  password: string;
  clientId: string;
  /** Required for `mqtts:`. */
  tls?: ClientTls;
  /** Default 5 s. */
  timeoutMs?: number;
}

/** The outcome of {@link connectOnce}. */
type ConnectResult =
  | { ok: true; client: MqttClient }
  | { ok: false; reason: ConnectFailure; detail: string };

/** Words for a CONNACK code (MQTT 3.1.1 return codes and MQTT 5 reason codes). */
export function connackFailure(code: number): ConnectFailure {
  switch (code) {
    case 4:
    case 0x86:
      return "bad_credentials";
    case 5:
    case 0x87:
    case 0x8a:
      return "not_authorized";
    case 2:
    case 0x85:
      return "client_id_rejected";
    case 3:
    case 0x88:
    case 0x89:
      return "server_unavailable";
    case 1:
    case 0x84:
      return "protocol_refused";
    default:
      return "refused";
  }
}

/** The failure an error raised while connecting stands for. */
export function classifyConnectError(error: unknown): ConnectFailure {
  const e = error as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" || typeof e?.code === "number" ? e.code : "";
  if (typeof code === "number") return connackFailure(code);
  const text = `${code} ${typeof e?.message === "string" ? e.message : ""}`.toUpperCase();
  if (/UNKNOWN_?CA/.test(text)) return "tls_unknown_ca";
  if (/CERTIFICATE_?REQUIRED/.test(text)) return "tls_certificate_required";
  if (
    /BAD_?CERTIFICATE|UNSUPPORTED_?CERTIFICATE|CERTIFICATE_?(REVOKED|EXPIRED|UNKNOWN)/.test(text)
  ) {
    return "tls_certificate_refused";
  }
  if (
    /UNABLE_TO_VERIFY|SELF_SIGNED|CERT_HAS_EXPIRED|CERT_NOT_YET_VALID|ALTNAME|UNABLE_TO_GET_ISSUER|INVALIDCERTIFICATE|INVALID PEER CERTIFICATE/
      .test(text)
  ) return "tls_server_untrusted";
  if (/SSL|TLS|HANDSHAKE|DECRYPT/.test(text)) return "tls_failed";
  if (
    /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|CONNECTION REFUSED \(OS/.test(text)
  ) {
    return "unreachable";
  }
  if (/ECONNRESET|EPIPE|CLOSED/.test(text)) return "closed";
  if (/TIMEOUT|TIMED OUT|ETIMEDOUT/.test(text)) return "timeout";
  return "refused";
}

/** A short text of an error for logs and for the "other reason" wording. */
function errorDetail(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | null;
  const message = typeof e?.message === "string" ? e.message : String(error);
  const code = e?.code !== undefined && !message.includes(String(e.code)) ? ` (${e.code})` : "";
  return `${message}${code}`.slice(0, 300);
}

/**
 * Connects once to `url`; answers the client (the caller ends it) or why it failed. A
 * refused CONNACK, a TLS alert, a closed socket and the time limit all end the attempt.
 */
export function connectOnce(o: ConnectOptions): Promise<ConnectResult> {
  const timeoutMs = o.timeoutMs ?? 5_000;
  const secure = /^(mqtts|tls|ssl):/.test(o.url);
  if (secure && !o.tls) {
    return Promise.resolve({
      ok: false,
      reason: "tls_failed",
      detail: "no CA to check the broker",
    });
  }
  const client = mqtt.connect(o.url, {
    username: o.username,
    password: o.password,
    clientId: o.clientId,
    protocolVersion: 4,
    clean: true,
    reconnectPeriod: 0,
    // Our own timer decides; mqtt.js's comes later as a safety net.
    connectTimeout: timeoutMs + 1_000,
    keepalive: 30,
    ...(secure
      ? { ca: o.tls!.ca, cert: o.tls!.cert, key: o.tls!.key, rejectUnauthorized: true }
      : {}),
  });
  // Errors after the outcome (a late TLS alert, a closed socket) must not go unhandled.
  client.on("error", () => {});
  return new Promise<ConnectResult>((resolve) => {
    let settled = false;
    const finish = (r: ConnectResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.removeListener("connect", onConnect);
      client.removeListener("error", onError);
      client.removeListener("close", onClose);
      if (!r.ok) client.end(true);
      resolve(r);
    };
    const onConnect = () => finish({ ok: true, client });
    const onError = (error: unknown) =>
      finish({ ok: false, reason: classifyConnectError(error), detail: errorDetail(error) });
    const onClose = () =>
      finish({ ok: false, reason: "closed", detail: "the broker closed the connection" });
    const timer = setTimeout(
      () => finish({ ok: false, reason: "timeout", detail: `no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    client.on("connect", onConnect);
    client.on("error", onError);
    client.on("close", onClose);
  });
}

/** Ends a client and waits until its socket is closed. */
export function endClient(client: MqttClient): Promise<void> {
  return new Promise((resolve) => client.end(false, {}, () => resolve()));
}

/**
 * Subscribes and answers whether the broker granted every filter (a SUBACK failure code
 * 0x80 is a refusal; mqtt.js rejects on it).
 */
export async function subscribeGranted(client: MqttClient, filter: string): Promise<boolean> {
  try {
    const granted = await client.subscribeAsync(filter, { qos: 1 });
    return !granted.some((g) => g.qos >= 128);
  } catch (e) {
    const codes = (e as { packet?: { granted?: unknown } }).packet?.granted;
    if (Array.isArray(codes)) return false;
    throw e;
  }
}
