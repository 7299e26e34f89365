/** Configuration from the environment, validated at start. */
import { z } from "zod";
import { isIP } from "node:net";
import { OPS_ENV, opsSettings, wholeNumber } from "./config_ops.ts";
import { exchangeRatesSchema } from "../../core/cfdi_exchange.ts";

import type { Config } from "./config_types.ts";
export type { Config, Contact, OpenpaySettings } from "./config_types.ts";

/** Openpay's base URLs. */
const OPENPAY_URLS = {
  sandbox: "https://sandbox-api.openpay.mx",
  production: "https://api.openpay.mx",
} as const;

const portSchema = (name: string, fallback: number) =>
  z.string().optional().transform((v, ctx) => {
    if (v === undefined || v === "") return fallback;
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 1 || n > 65535) {
      ctx.addIssue({
        code: "custom",
        message: `${name} must be a whole number from 1 to 65535, got "${v}"`,
      });
      return z.NEVER;
    }
    return n;
  });

const urlOf = (name: string, schemes: string[]) =>
  z.string().optional().refine(
    (v) => {
      if (!v) return true;
      try {
        return schemes.includes(new URL(v).protocol.replace(/:$/, ""));
      } catch {
        return false;
      }
    },
    {
      message: `${name} must be a URL starting with ${schemes.map((s) => `${s}://`).join(" or ")}`,
    },
  );

const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** The default names of the TLS server certificate: localhost, 127.0.0.1 and this machine's name. */
function defaultTlsHosts(): string[] {
  const hosts = ["localhost", "127.0.0.1"];
  try {
    const name = Deno.hostname();
    if (HOST_NAME.test(name) && !hosts.includes(name)) hosts.push(name);
  } catch {
    // no permission to read the host name: the defaults stay
  }
  return hosts;
}

const envSchema = z.object({
  PORT: portSchema("PORT", 8000),
  HOSTNAME: z.string().optional(),
  PORTAL_ENV: z.enum(["production", "development"], {
    message: "PORTAL_ENV must be production or development",
  }).optional().default("production"),
  PUBLIC_URL: urlOf("PUBLIC_URL", ["http", "https"]),
  SERVER_TIMING: z.enum(["true", "false"], {
    message: "SERVER_TIMING must be true or false",
  }).optional(),
  TRUST_PROXY: z.string().optional().transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return [];
    const list = v.split(",").map((h) => h.trim()).filter((h) => h !== "");
    const bad = list.find((h) => !isIP(h));
    if (bad !== undefined) {
      ctx.addIssue({
        code: "custom",
        message: `TRUST_PROXY must be a comma-separated list of IP addresses, got "${bad}"`,
      });
      return z.NEVER;
    }
    return list;
  }),
  DATA_DIR: z.string().optional().transform((v) => v || "./data"),
  DENO_KV_URL: z.string().optional(),
  ADMIN_EMAIL: z.string().optional().refine(
    (v) => v === undefined || v === "" || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()),
    { message: "ADMIN_EMAIL must be an e-mail address" },
  ),
  ADMIN_PASSWORD: z.string().optional().refine(
    (v) => v === undefined || v === "" || v.length >= 6,
    { message: "ADMIN_PASSWORD must have at least 6 characters" },
  ),
  JWT_SECRET: z.string().optional().refine(
    (v) => v === undefined || v === "" || v.length >= 32,
    { message: "JWT_SECRET must have at least 32 characters" },
  ),
  TOKEN_TTL_MINUTES: wholeNumber("TOKEN_TTL_MINUTES", 60, 10, 1440),
  SESSION_MAX_DAYS: wholeNumber("SESSION_MAX_DAYS", 30, 1, 365),
  CONTACT_ADDRESS: z.string().optional(),
  CONTACT_PHONE: z.string().optional().refine((v) => !v || /^\+?[\d\s()-]{6,20}$/.test(v), {
    message: "CONTACT_PHONE must be a phone number such as +52 55 1234 5678",
  }),
  CONTACT_WHATSAPP: z.string().optional().refine((v) => !v || /^\+?[\d\s()-]{6,20}$/.test(v), {
    message: "CONTACT_WHATSAPP must be a phone number such as +52 55 1234 5678",
  }),
  CONTACT_EMAIL: z.string().optional().refine((v) => !v || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), {
    message: "CONTACT_EMAIL must be an e-mail address",
  }),
  CONTACT_WEBSITE: z.string().optional().refine((v) => !v || /^https?:\/\/\S+$/.test(v), {
    message: "CONTACT_WEBSITE must start with http:// or https://",
  }),
  MQTT_URL: urlOf("MQTT_URL", ["mqtt", "mqtts", "tcp", "tls"]),
  MQTT_HOSTNAME: z.string().optional(),
  MQTT_PORT: portSchema("MQTT_PORT", 1883),
  MQTT_TLS_PORT: wholeNumber("MQTT_TLS_PORT", 8883, 0, 65535),
  MQTT_TLS_HOSTS: z.string().optional().transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return null;
    const hosts = v.split(",").map((h) => h.trim()).filter((h) => h !== "");
    const bad = hosts.find((h) => !isIP(h) && !HOST_NAME.test(h));
    if (bad !== undefined || hosts.length === 0) {
      ctx.addIssue({
        code: "custom",
        message:
          `MQTT_TLS_HOSTS must be a comma-separated list of host names or IP addresses, got "${
            bad ?? v
          }"`,
      });
      return z.NEVER;
    }
    return hosts;
  }),
  MQTT_REQUIRE_CLIENT_CERT: z.enum(["true", "false"], {
    message: "MQTT_REQUIRE_CLIENT_CERT must be true or false",
  }).optional().default("false"),
  MQTT_MAX_PACKET_BYTES: wholeNumber("MQTT_MAX_PACKET_BYTES", 65_536, 1_024, 268_435_455),
  MQTT_USERNAME: z.string().optional(),
  MQTT_PASSWORD: z.string().optional(),
  INGEST: z.enum(["on", "off"], { message: "INGEST must be on or off" }).optional().default("on"),
  INGEST_SHARE_GROUP: z.string().optional().refine((v) => !v || /^[A-Za-z0-9_-]{1,64}$/.test(v), {
    message: "INGEST_SHARE_GROUP must be letters, digits, - or _ (at most 64)",
  }),
  MQTT_DYNSEC: z.enum(["on", "off"], { message: "MQTT_DYNSEC must be on or off" }).optional()
    .default("off"),
  DEVICE_SILENCE_SECONDS: wholeNumber("DEVICE_SILENCE_SECONDS", 120, 10, 86400),
  QUESTDB_URL: urlOf("QUESTDB_URL", ["http", "https"]),
  RAW_RETENTION_DAYS: wholeNumber("RAW_RETENTION_DAYS", 35, 1, 3650),
  UTC_OFFSET_MINUTES: z.string().optional().transform((v, ctx) => {
    if (v === undefined || v === "") return -360;
    const n = Number(v);
    if (!/^-?\d+$/.test(v) || n < -720 || n > 840 || n % 15 !== 0) {
      ctx.addIssue({
        code: "custom",
        message: `UTC_OFFSET_MINUTES must be a multiple of 15 from -720 to 840, got "${v}"`,
      });
      return z.NEVER;
    }
    return n;
  }),
  OPENPAY_MERCHANT_ID: z.string().optional().refine((v) => !v || /^[a-z0-9]{1,40}$/.test(v), {
    message: "OPENPAY_MERCHANT_ID must be the merchant id (lower-case letters and digits)",
  }),
  OPENPAY_PRIVATE_KEY: z.string().optional().refine((v) => !v || /^sk_[A-Za-z0-9]{1,64}$/.test(v), {
    message: "OPENPAY_PRIVATE_KEY must be the private key starting with sk_",
  }),
  ADMIN_2FA_REQUIRED: z.enum(["true", "false"], {
    message: "ADMIN_2FA_REQUIRED must be true or false",
  }).optional().default("false"),
  OPENPAY_PRODUCTION: z.enum(["true", "false"], {
    message: "OPENPAY_PRODUCTION must be true or false",
  }).optional().default("false"),
  OPENPAY_API_URL: urlOf("OPENPAY_API_URL", ["http", "https"]),
  FACTURAPI_KEY: z.string().optional(),
  FACTURAPI_URL: urlOf("FACTURAPI_URL", ["http", "https"]),
  FACTURAPI_ZIP: z.string().regex(/^\d{5}$/, "FACTURAPI_ZIP must be 5 digits").optional(),
  FACTURAPI_EXCHANGE_RATES: exchangeRatesSchema,
  OPENPAY_WEBHOOK_USER: z.string().optional().refine((v) => !v || /^[^:\s]{1,100}$/.test(v), {
    message: "OPENPAY_WEBHOOK_USER must be 1 to 100 characters without spaces or colons",
  }),
  OPENPAY_WEBHOOK_PASSWORD: z.string().optional().refine((v) => !v || v.length >= 12, {
    message: "OPENPAY_WEBHOOK_PASSWORD must have at least 12 characters",
  }),
  ...OPS_ENV,
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error"], {
    message: "LOG_LEVEL must be one of debug, info, warn, error",
  }).optional().default("info"),
});

/** The environment variables `loadConfig` reads (a deployment's files are checked against them). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** Thrown when the environment holds bad values; the message lists each of them. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Reads and validates the configuration from `env` (normally `Deno.env.toObject()`). */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) =>
        i.message.includes(String(i.path[0] ?? ""))
          ? i.message
          : `${String(i.path[0])}: ${i.message}`
      ),
    );
  }
  const v = parsed.data;
  if (v.MQTT_DYNSEC === "on" && (!v.MQTT_URL || !v.MQTT_USERNAME || !v.MQTT_PASSWORD)) {
    throw new ConfigError([
      "MQTT_DYNSEC=on needs MQTT_URL, MQTT_USERNAME and MQTT_PASSWORD (the dynamic-security admin account of the external broker)",
    ]);
  }
  const openpayProblems = [];
  if (!v.OPENPAY_MERCHANT_ID !== !v.OPENPAY_PRIVATE_KEY) {
    openpayProblems.push("OPENPAY_MERCHANT_ID and OPENPAY_PRIVATE_KEY must be set together");
  }
  if (!v.OPENPAY_WEBHOOK_USER !== !v.OPENPAY_WEBHOOK_PASSWORD) {
    openpayProblems.push("OPENPAY_WEBHOOK_USER and OPENPAY_WEBHOOK_PASSWORD must be set together");
  }
  if (openpayProblems.length > 0) throw new ConfigError(openpayProblems);
  const production = v.OPENPAY_PRODUCTION === "true";
  const dataDir = v.DATA_DIR.replace(/\/+$/, "") || ".";
  const development = v.PORTAL_ENV === "development";
  return {
    port: v.PORT,
    hostname: v.HOSTNAME || (development ? "127.0.0.1" : "0.0.0.0"),
    development,
    serverTiming: v.SERVER_TIMING ? v.SERVER_TIMING === "true" : development,
    publicUrl: v.PUBLIC_URL ? new URL(v.PUBLIC_URL) : null,
    trustProxy: v.TRUST_PROXY,
    admin2faRequired: v.ADMIN_2FA_REQUIRED === "true",
    dataDir,
    kvPath: v.DENO_KV_URL || `${dataDir}/portal.kv`,
    adminEmail: v.ADMIN_EMAIL ? v.ADMIN_EMAIL.trim().toLowerCase() : null,
    adminPassword: v.ADMIN_PASSWORD || null,
    jwtSecret: v.JWT_SECRET || null,
    tokenTtlMinutes: v.TOKEN_TTL_MINUTES,
    sessionMaxDays: v.SESSION_MAX_DAYS,
    logLevel: v.LOG_LEVEL,
    mqtt: {
      url: v.MQTT_URL || null,
      hostname: v.MQTT_HOSTNAME || (development ? "127.0.0.1" : "0.0.0.0"),
      port: v.MQTT_PORT,
      tlsPort: v.MQTT_TLS_PORT,
      tlsHosts: v.MQTT_TLS_HOSTS ?? defaultTlsHosts(),
      requireClientCert: v.MQTT_REQUIRE_CLIENT_CERT === "true",
      maxPacketBytes: v.MQTT_MAX_PACKET_BYTES,
      username: v.MQTT_USERNAME || null,
      password: v.MQTT_PASSWORD || null,
      ingest: v.INGEST === "on",
      shareGroup: v.INGEST_SHARE_GROUP || null,
      silenceSeconds: v.DEVICE_SILENCE_SECONDS,
      dynsec: v.MQTT_DYNSEC === "on",
    },
    utcOffsetMinutes: v.UTC_OFFSET_MINUTES,
    openpay: {
      merchantId: v.OPENPAY_MERCHANT_ID || null,
      privateKey: v.OPENPAY_PRIVATE_KEY || null,
      production,
      apiUrl: (v.OPENPAY_API_URL || OPENPAY_URLS[production ? "production" : "sandbox"])
        .replace(/\/+$/, ""),
      webhookUser: v.OPENPAY_WEBHOOK_USER || null,
      webhookPassword: v.OPENPAY_WEBHOOK_PASSWORD || null,
    },
    ...opsSettings(v),
    facturapi: {
      key: v.FACTURAPI_KEY?.trim() || null,
      url: (v.FACTURAPI_URL || "https://www.facturapi.io/v2").replace(/\/+$/, ""),
      issuerZip: v.FACTURAPI_ZIP ?? null,
      exchange: v.FACTURAPI_EXCHANGE_RATES,
    },
    telemetry: {
      questdbUrl: v.QUESTDB_URL || null,
      rawRetentionDays: v.RAW_RETENTION_DAYS,
    },
    contact: {
      address: v.CONTACT_ADDRESS?.trim() ?? "",
      phone: v.CONTACT_PHONE?.trim() ?? "",
      whatsapp: v.CONTACT_WHATSAPP?.trim() ?? "",
      email: v.CONTACT_EMAIL?.trim() ?? "",
      website: v.CONTACT_WEBSITE?.trim() ?? "",
    },
  };
}
