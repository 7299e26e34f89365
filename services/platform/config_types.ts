/**
 * The shapes of the portal's configuration (`config.ts` reads and checks them from the
 * environment): the settings of each part, one interface each.
 */
import type { BackupSettings } from "./config_ops.ts";
import type { FacturapiConfig } from "../../core/cfdi_exchange.ts";

/** The portal's configuration. */
export interface Config {
  port: number;
  hostname: string;
  dataDir: string;
  /** Deno KV path or KV Connect URL; defaults to `<dataDir>/portal.kv`. */
  kvPath: string;
  adminEmail: string | null;
  adminPassword: string | null;
  /** Secret for signing tokens; generated into the data directory when unset. */
  jwtSecret: string | null;
  /** Lifetime of an access token in minutes. */
  tokenTtlMinutes: number;
  /** Days after sign-in within which a session may be refreshed; then it ends. */
  sessionMaxDays: number;
  /** Log level of the server's own log lines. */
  logLevel: "debug" | "info" | "warn" | "error";
  /** What the contact dialog offers; empty values are not shown. */
  contact: Contact;
  /** MQTT: an external broker, or the embedded one. */
  mqtt: MqttSettings;
  /** The time-series store. */
  telemetry: TelemetrySettings;
  /** Minutes east of UTC of the business time zone: local days and months start there. */
  utcOffsetMinutes: number;
  /** The SPEI payment processor (Openpay). */
  openpay: OpenpaySettings;
  /** Facturapi (FACTURAPI_*; issue 31): no key runs the local sandbox. */
  facturapi: FacturapiConfig;
  /** A development run (`PORTAL_ENV=development` or `--dev`): error pages show the exception. */
  development: boolean;
  /**
   * Whether responses carry a `Server-Timing` header (KV reads, telemetry queries, render):
   * `SERVER_TIMING=true`/`false`, else on in development only (`services/platform/timing.ts`).
   */
  serverTiming?: boolean;
  /**
   * The address browsers use to reach the portal (`PUBLIC_URL`), e.g. behind a TLS proxy: its
   * origin is the one sign-in redirects and the CSRF check accept; null uses the request's.
   */
  publicUrl: URL | null;
  /**
   * Addresses of reverse proxies (`TRUST_PROXY`) whose `X-Forwarded-For` names the client;
   * empty: the connection's address is the client's.
   */
  trustProxy: string[];
  /** The portal's own rotated backups and the metrics' token (`config_ops.ts`). */
  backup?: BackupSettings;
  metricsToken?: string | null;
  /** `ADMIN_2FA_REQUIRED=true`: an admin without a second factor is sent to set one up. */
  admin2faRequired: boolean;
}

/** Openpay settings (OPENPAY_*). */
export interface OpenpaySettings {
  /** Merchant id and private (`sk_`) key; null when not configured (the local sandbox stands in). */
  merchantId: string | null;
  privateKey: string | null;
  /** Whether the production API is used; otherwise payments are in test mode. */
  production: boolean;
  /** The API's base URL (without `/v1`). */
  apiUrl: string;
  /** The Basic credentials the webhook requires; null refuses every webhook call. */
  webhookUser: string | null;
  webhookPassword: string | null;
  /** How long one call to Openpay may take (ms); the client's default when unset. */
  timeoutMs?: number;
  /**
   * The first wait (ms, doubling) before an event is checked again when Openpay does not yet
   * show what it announced; the webhook's default when unset.
   */
  eventRetryMs?: number;
}

/** MQTT settings. */
export interface MqttSettings {
  /** External broker URL (mqtt://, mqtts://); null runs the embedded broker. */
  url: string | null;
  /**
   * Address the embedded broker listens on: `MQTT_HOSTNAME`, else `127.0.0.1` in development
   * and `0.0.0.0` in production (meters on the network must reach it).
   */
  hostname: string;
  /** Port of the embedded broker. */
  port: number;
  /** Port of the embedded broker's MQTT over TLS (server certificate from the portal's CA); 0 turns TLS off. */
  tlsPort: number;
  /** Host names and IP addresses the embedded broker's server certificate names. */
  tlsHosts: string[];
  /** Whether the embedded broker's TLS port refuses clients without a certificate from the portal's CA. */
  requireClientCert: boolean;
  /** Largest MQTT packet a client may send to the embedded broker (bytes). */
  maxPacketBytes: number;
  /** Credentials of the portal's ingest client on an external broker. */
  username: string | null;
  password: string | null;
  /** Whether this process runs ingest (off when `deno task ingest` runs it apart). */
  ingest: boolean;
  /** Shared-subscription group when several ingest processes split the load. */
  shareGroup: string | null;
  /** A device that sends nothing for this long is offline. */
  silenceSeconds: number;
  /**
   * Whether device accounts and topic ACLs are kept in Mosquitto's dynamic-security plugin
   * (MQTT_DYNSEC=on, only with MQTT_URL; the admin account is MQTT_USERNAME/MQTT_PASSWORD).
   */
  dynsec: boolean;
}

/** Time-series store settings. */
export interface TelemetrySettings {
  /** QuestDB HTTP URL; null uses the embedded SQLite store in the data folder. */
  questdbUrl: string | null;
  /** Days of raw samples kept (rollups are kept for good). */
  rawRetentionDays: number;
}

/** The operator's contact channels. */
export interface Contact {
  address: string;
  phone: string;
  whatsapp: string;
  email: string;
  website: string;
}
