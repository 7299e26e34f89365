/**
 * The topology of several machines as shipped (deploy/compose.yaml, Caddyfile, mosquitto.conf):
 * the compose file parses, has each part, and gives every portal and ingest worker an
 * environment the code reads and accepts: only variables the configuration knows, the values
 * `loadConfig` takes, the settings that make replicas (one KV server, QuestDB, the same token
 * secret, ingest apart, Caddy's address trusted) and ingest workers sharing one group.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { CONFIG_VARIABLES, loadConfig } from "../services/platform/config.ts";
import { loadMessageSettings } from "../services/messages/settings.ts";

const DEPLOY = new URL("../deploy/", import.meta.url);
const read = (name: string) => Deno.readTextFileSync(new URL(name, DEPLOY));

/** `deploy/.env.example` as a map. */
function example(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of read(".env.example").split("\n")) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}

/** A value with compose's `${VAR}`, `${VAR:-default}` and `${VAR:?message}` filled from `env`. */
function interpolate(value: unknown, env: Record<string, string>): string {
  return String(value).replace(
    /\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g,
    (_, name: string, kind?: string, rest?: string) => {
      const v = env[name];
      if (v !== undefined && v !== "") return v;
      if (kind === "?") throw new Error(`${name} is required: ${rest}`);
      return kind === "-" ? rest ?? "" : "";
    },
  );
}

/** Variables read outside `loadConfig`, and the file that reads each (checked to name it). */
const READ_ELSEWHERE: Record<string, string> = {
  SMTP_URL: "services/messages/settings.ts",
  MAIL_FROM: "services/messages/settings.ts",
  INGEST_CLIENT_ID: "scripts/ingest.ts",
  // Deno's own KV Connect client reads it (the token of DENO_KV_URL).
  DENO_KV_ACCESS_TOKEN: "README.md",
};

const compose = parse(read("compose.yaml"), { merge: true });
const env = example();
const services: Record<
  string,
  { environment?: Record<string, unknown> } & Record<string, unknown>
> = compose.services;
const envOf = (name: string) =>
  Object.fromEntries(
    Object.entries(services[name].environment ?? {}).map(([k, v]) => [k, interpolate(v, env)]),
  );

Deno.test("the compose file has the topology's parts", () => {
  assert.deepEqual(Object.keys(services).sort(), [
    "caddy",
    "denokv",
    "ingest-1",
    "ingest-2",
    "mosquitto",
    "portal-1",
    "portal-2",
    "questdb",
  ]);
  for (const name of ["portal-1", "portal-2", "ingest-1", "ingest-2"]) {
    assert.deepEqual(services[name].build, { context: "..", dockerfile: "Dockerfile" }, name);
  }
  assert.ok(Deno.statSync(new URL("../Dockerfile", DEPLOY)).isFile);
  for (const name of ["ingest-1", "ingest-2"]) {
    assert.equal((services[name].command as string[]).at(-1), "scripts/ingest.ts");
  }
});

Deno.test("every portal and ingest worker gets variables the code reads, with values it accepts", () => {
  const configs = [];
  for (const name of ["portal-1", "portal-2", "ingest-1", "ingest-2"]) {
    const vars = envOf(name);
    for (const key of Object.keys(vars)) {
      if (CONFIG_VARIABLES.includes(key)) continue;
      const reader = READ_ELSEWHERE[key];
      assert.ok(reader, `${name}: ${key} is read by nothing`);
      assert.ok(Deno.readTextFileSync(new URL(`../${reader}`, DEPLOY)).includes(key), key);
    }
    loadMessageSettings(vars);
    configs.push({ name, vars, config: loadConfig(vars) });
  }
  const caddy = (services.caddy.networks as Record<string, { ipv4_address: string }>).portal;
  for (const { name, config } of configs) {
    assert.equal(config.kvPath, "http://denokv:4512", name);
    assert.equal(config.telemetry.questdbUrl, "http://questdb:9000", name);
    assert.equal(config.mqtt.url, "mqtt://mosquitto:1883", name);
    assert.equal(config.mqtt.dynsec, true, name);
    assert.equal(config.jwtSecret, env.JWT_SECRET, name);
  }
  for (const { name, config } of configs.slice(0, 2)) {
    assert.equal(config.mqtt.ingest, false, `${name} leaves ingest to the workers`);
    assert.deepEqual(config.trustProxy, [caddy.ipv4_address], name);
    assert.equal(config.publicUrl?.href, `https://${env.PORTAL_HOST}/`, name);
  }
  const workers = configs.slice(2);
  assert.deepEqual(workers.map((w) => w.config.mqtt.shareGroup), ["ingest", "ingest"]);
  assert.deepEqual(workers.map((w) => w.vars.INGEST_CLIENT_ID), ["ingest-1", "ingest-2"]);
});

Deno.test("Caddy sends to both portals; Mosquitto's plugin file is the one the compose file makes", () => {
  const caddyfile = read("Caddyfile");
  const port = envOf("portal-1").PORT;
  assert.match(caddyfile, new RegExp(`reverse_proxy portal-1:${port} portal-2:${port} \\{`));
  assert.match(caddyfile, /health_uri \/health/);
  const conf = read("mosquitto.conf");
  const file = /^plugin_opt_config_file (\S+)$/m.exec(conf)?.[1];
  assert.ok(
    file && (services.mosquitto.entrypoint as string[]).join(" ").includes(
      `mosquitto_ctrl dynsec init ${file}`,
    ),
  );
  assert.match(conf, /^allow_anonymous false$/m);
});
