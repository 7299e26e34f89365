import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "./config.ts";

/** The ConfigError thrown for `env`; fails when none is thrown. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    assert.ok(e instanceof ConfigError, `expected a ConfigError, got ${e}`);
    return e;
  }
  assert.fail(`loadConfig(${JSON.stringify(env)}) accepted bad values`);
}

Deno.test("loadConfig() defaults to port 8000, ./data and a KV file under the data directory", () => {
  const config = loadConfig({});
  assert.equal(config.port, 8000);
  assert.equal(config.dataDir, "./data");
  assert.equal(config.kvPath, "./data/portal.kv");
  assert.equal(config.hostname, "0.0.0.0");
  assert.equal(config.tokenTtlMinutes, 60);
  assert.equal(config.logLevel, "info");
  assert.equal(config.adminEmail, null);
  assert.equal(config.adminPassword, null);
  assert.equal(config.jwtSecret, null);
});

Deno.test("loadConfig() treats empty values as unset", () => {
  const config = loadConfig({ PORT: "", DATA_DIR: "", ADMIN_PASSWORD: "", JWT_SECRET: "" });
  assert.equal(config.port, 8000);
  assert.equal(config.dataDir, "./data");
  assert.equal(config.adminPassword, null);
  assert.equal(config.jwtSecret, null);
});

Deno.test("loadConfig() keeps the KV file under DATA_DIR and prefers DENO_KV_URL", () => {
  const config = loadConfig({ DATA_DIR: "./var/portal/", PORT: "9090" });
  assert.equal(config.port, 9090);
  assert.equal(config.dataDir, "./var/portal");
  assert.equal(config.kvPath, "./var/portal/portal.kv");
  const remote = loadConfig({ DENO_KV_URL: "https://kv.example.com/db" });
  assert.equal(remote.kvPath, "https://kv.example.com/db");
});

/** A valid, non-default value of the portal's, the MQTT and time-series and the Openpay settings. */
const VALID_ENV = {
  ADMIN_EMAIL: " Ops@Example.com ",
  ADMIN_PASSWORD: "secret1",
  JWT_SECRET: "x".repeat(32),
  TOKEN_TTL_MINUTES: "30",
  LOG_LEVEL: "debug",
  CONTACT_EMAIL: "help@example.com",
  CONTACT_PHONE: "+52 55 1234 5678",
  CONTACT_WEBSITE: "https://example.com",
  MQTT_URL: "mqtt://broker.local:1883",
  MQTT_USERNAME: "portal",
  MQTT_PASSWORD: "s3cret",
  INGEST: "off",
  INGEST_SHARE_GROUP: "ingest",
  DEVICE_SILENCE_SECONDS: "300",
  QUESTDB_URL: "http://questdb.local:9000",
  RAW_RETENTION_DAYS: "90",
  OPENPAY_MERCHANT_ID: "mzdtln0bmtms6o3kck8f",
  OPENPAY_PRIVATE_KEY: "sk_e568c42a6c384b7ab02cd47d2e407cab",
  OPENPAY_PRODUCTION: "true",
  OPENPAY_WEBHOOK_USER: "hook",
  OPENPAY_WEBHOOK_PASSWORD: "long-enough-password",
};

Deno.test("loadConfig() reads valid values of every setting", () => {
  const config = loadConfig(VALID_ENV);
  assert.equal(config.adminEmail, "ops@example.com");
  assert.equal(config.adminPassword, "secret1");
  assert.equal(config.jwtSecret, "x".repeat(32));
  assert.equal(config.tokenTtlMinutes, 30);
  assert.equal(config.logLevel, "debug");
  assert.equal(config.contact.email, "help@example.com");
  assert.equal(config.contact.phone, "+52 55 1234 5678");
  assert.equal(config.contact.website, "https://example.com");
});

Deno.test("loadConfig() names PORT=abc in its ConfigError", () => {
  const e = configError({ PORT: "abc" });
  assert.equal(e.problems.length, 1);
  assert.match(e.message, /PORT/);
  assert.match(e.message, /"abc"/);
});

Deno.test("loadConfig() names PORT=70000 in its ConfigError", () => {
  const e = configError({ PORT: "70000" });
  assert.equal(e.problems.length, 1);
  assert.match(e.message, /PORT must be a whole number from 1 to 65535/);
  assert.match(e.message, /70000/);
  assert.match(configError({ PORT: "0" }).message, /PORT/);
  assert.match(configError({ PORT: "80.5" }).message, /PORT/);
});

Deno.test("loadConfig() names a short ADMIN_PASSWORD without echoing it", () => {
  const e = configError({ ADMIN_PASSWORD: "abc" });
  assert.equal(e.problems.length, 1);
  assert.match(e.message, /ADMIN_PASSWORD/);
  assert.doesNotMatch(e.message, /abc/);
});

Deno.test("loadConfig() names a short JWT_SECRET without echoing it", () => {
  const e = configError({ JWT_SECRET: "shortsecret" });
  assert.equal(e.problems.length, 1);
  assert.match(e.message, /JWT_SECRET/);
  assert.doesNotMatch(e.message, /shortsecret/);
});

/** A bad value of each of these settings, each named alone in its ConfigError. */
const BAD_ALONE: Record<string, string> = {
  LOG_LEVEL: "loud",
  CONTACT_EMAIL: "not-an-address",
  ADMIN_EMAIL: "admin",
  TOKEN_TTL_MINUTES: "5",
  CONTACT_PHONE: "call me",
  CONTACT_WHATSAPP: "abc",
  CONTACT_WEBSITE: "example.com",
};

for (const [name, value] of Object.entries(BAD_ALONE)) {
  Deno.test(`loadConfig() names ${name}=${value} in its ConfigError`, () => {
    const e = configError({ [name]: value });
    assert.equal(e.problems.length, 1);
    assert.match(e.message, new RegExp(name));
  });
}

Deno.test("loadConfig() lists several bad values together, one line each", () => {
  const bad = {
    PORT: "abc",
    ADMIN_PASSWORD: "abc",
    JWT_SECRET: "short",
    LOG_LEVEL: "loud",
    CONTACT_EMAIL: "nope",
  };
  const e = configError(bad);
  assert.equal(e.name, "ConfigError");
  assert.equal(e.problems.length, 5);
  for (const name of Object.keys(bad)) {
    assert.equal(e.problems.filter((p) => p.includes(name)).length, 1, name);
    assert.match(e.message, new RegExp(`^  - .*${name}`, "m"), name);
  }
});

Deno.test("MQTT and time-series settings default to the embedded broker and store", () => {
  const c = loadConfig({});
  assert.deepEqual(c.mqtt, {
    url: null,
    hostname: "0.0.0.0",
    port: 1883,
    tlsPort: 8883,
    tlsHosts: c.mqtt.tlsHosts,
    requireClientCert: false,
    maxPacketBytes: 65_536,
    username: null,
    password: null,
    ingest: true,
    shareGroup: null,
    silenceSeconds: 120,
    dynsec: false,
  });
  assert.deepEqual(c.telemetry, { questdbUrl: null, rawRetentionDays: 35 });
});

Deno.test("MQTT and time-series settings are read and checked", () => {
  const c = loadConfig(VALID_ENV);
  assert.equal(c.mqtt.url, "mqtt://broker.local:1883");
  assert.equal(c.mqtt.ingest, false);
  assert.equal(c.mqtt.silenceSeconds, 300);
  assert.equal(c.telemetry.questdbUrl, "http://questdb.local:9000");
  assert.equal(c.telemetry.rawRetentionDays, 90);
  const bad = {
    MQTT_URL: "http://x",
    QUESTDB_URL: "ftp://y",
    INGEST: "maybe",
    DEVICE_SILENCE_SECONDS: "5",
    INGEST_SHARE_GROUP: "a/b",
  };
  assert.throws(() => loadConfig(bad), (e: unknown) => {
    const m = (e as Error).message;
    for (const name of Object.keys(bad)) assert.ok(m.includes(name), `${name} named in: ${m}`);
    return true;
  });
});

Deno.test("MQTT_DYNSEC turns on only with an external broker and its admin account", () => {
  const broker = { MQTT_URL: "mqtts://broker.local:8883", MQTT_USERNAME: "portal-admin" };
  assert.equal(loadConfig({ ...broker, MQTT_PASSWORD: "s3cret" }).mqtt.dynsec, false);
  assert.equal(
    loadConfig({ ...broker, MQTT_PASSWORD: "s3cret", MQTT_DYNSEC: "on" }).mqtt.dynsec,
    true,
  );
  assert.match(configError({ MQTT_DYNSEC: "yes" }).message, /MQTT_DYNSEC must be on or off/);
  assert.match(configError({ MQTT_DYNSEC: "on" }).message, /MQTT_DYNSEC=on needs MQTT_URL/);
  assert.match(configError({ ...broker, MQTT_DYNSEC: "on" }).message, /MQTT_PASSWORD/);
});

Deno.test("the business time zone defaults to Mexico City's UTC-6 and is checked", () => {
  assert.equal(loadConfig({}).utcOffsetMinutes, -360);
  assert.equal(loadConfig({ UTC_OFFSET_MINUTES: "60" }).utcOffsetMinutes, 60);
  for (const bad of ["-7", "900", "x"]) {
    assert.throws(() => loadConfig({ UTC_OFFSET_MINUTES: bad }), /UTC_OFFSET_MINUTES/);
  }
});

Deno.test("MQTT over TLS defaults to port 8883 for localhost, 127.0.0.1 and this machine", () => {
  const c = loadConfig({});
  assert.equal(c.mqtt.tlsPort, 8883);
  assert.deepEqual(c.mqtt.tlsHosts.slice(0, 2), ["localhost", "127.0.0.1"]);
  assert.ok(c.mqtt.tlsHosts.includes(Deno.hostname()) || c.mqtt.tlsHosts.length === 2);
  assert.equal(c.mqtt.requireClientCert, false);
});

Deno.test("MQTT_TLS_PORT, MQTT_TLS_HOSTS and MQTT_REQUIRE_CLIENT_CERT are read and checked", () => {
  const c = loadConfig({
    MQTT_TLS_PORT: "0",
    MQTT_TLS_HOSTS: " portal.example , 10.0.0.2,::1 ",
    MQTT_REQUIRE_CLIENT_CERT: "true",
  });
  assert.equal(c.mqtt.tlsPort, 0);
  assert.deepEqual(c.mqtt.tlsHosts, ["portal.example", "10.0.0.2", "::1"]);
  assert.equal(c.mqtt.requireClientCert, true);
  assert.throws(
    () => loadConfig({ MQTT_TLS_PORT: "70000" }),
    /MQTT_TLS_PORT must be a whole number from 0 to 65535, got "70000"/,
  );
  assert.throws(
    () => loadConfig({ MQTT_TLS_HOSTS: "portal.example,bad host" }),
    /MQTT_TLS_HOSTS must be a comma-separated list of host names or IP addresses, got "bad host"/,
  );
  assert.throws(
    () => loadConfig({ MQTT_REQUIRE_CLIENT_CERT: "yes" }),
    /MQTT_REQUIRE_CLIENT_CERT must be true or false/,
  );
});

Deno.test("loadConfig() reads the Openpay settings and names each bad one", () => {
  const none = loadConfig({});
  assert.equal(none.openpay.merchantId, null);
  assert.equal(none.openpay.production, false);
  assert.equal(none.openpay.apiUrl, "https://sandbox-api.openpay.mx");
  const live = loadConfig(VALID_ENV);
  assert.equal(live.openpay.apiUrl, "https://api.openpay.mx");
  assert.equal(live.openpay.production, true);
  assert.equal(live.openpay.webhookUser, "hook");
  assert.equal(
    loadConfig({ OPENPAY_API_URL: "http://127.0.0.1:4010/" }).openpay.apiUrl,
    "http://127.0.0.1:4010",
  );
  const bad = {
    OPENPAY_MERCHANT_ID: "Bad Id!",
    OPENPAY_PRIVATE_KEY: "pk_public",
    OPENPAY_PRODUCTION: "yes",
    OPENPAY_API_URL: "ftp://x",
    OPENPAY_WEBHOOK_PASSWORD: "short",
  };
  assert.throws(() => loadConfig(bad), (e: ConfigError) => {
    assert.equal(e.problems.length, 5);
    for (const name of Object.keys(bad)) assert.ok(e.problems.some((p) => p.includes(name)), name);
    return true;
  });
  assert.throws(
    () => loadConfig({ OPENPAY_MERCHANT_ID: "mzdtln0bmtms6o3kck8f" }),
    /OPENPAY_MERCHANT_ID and OPENPAY_PRIVATE_KEY must be set together/,
  );
});

Deno.test("MQTT_MAX_PACKET_BYTES caps the embedded broker's packets (64 KB unless set)", () => {
  assert.equal(loadConfig({}).mqtt.maxPacketBytes, 65_536);
  assert.equal(loadConfig({ MQTT_MAX_PACKET_BYTES: "131072" }).mqtt.maxPacketBytes, 131_072);
  assert.throws(() => loadConfig({ MQTT_MAX_PACKET_BYTES: "12" }), /MQTT_MAX_PACKET_BYTES/);
});

Deno.test("the embedded broker listens on 127.0.0.1 in development, 0.0.0.0 in production, or MQTT_HOSTNAME", () => {
  assert.equal(loadConfig({}).mqtt.hostname, "0.0.0.0");
  assert.equal(loadConfig({ PORTAL_ENV: "development" }).mqtt.hostname, "127.0.0.1");
  // The broker's address does not follow the HTTP listener's: a proxy in front of HTTP
  // must not hide the broker from the meters.
  assert.equal(loadConfig({ HOSTNAME: "127.0.0.1" }).mqtt.hostname, "0.0.0.0");
  assert.equal(
    loadConfig({ PORTAL_ENV: "development", MQTT_HOSTNAME: "0.0.0.0" }).mqtt.hostname,
    "0.0.0.0",
  );
});
