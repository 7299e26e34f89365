/**
 * A real Mosquitto the way production runs it for the portal: one TLS listener on a free
 * loopback port that requires a client certificate signed by the portal's CA, its server
 * certificate issued by that CA, the dynamic-security plugin with an admin account made
 * by `mosquitto_ctrl dynsec init`, and no anonymous clients.
 *
 * Binaries: `MOSQUITTO_BIN` (default `/usr/sbin/mosquitto`), `MOSQUITTO_CTRL_BIN` (default
 * `mosquitto_ctrl`); plugin: `MOSQUITTO_DYNSEC_PLUGIN` or the usual Debian paths. A missing
 * piece throws with a message that says what to install; it never skips.
 */
import assert from "node:assert/strict";
import mqtt, { type MqttClient } from "mqtt";
import type { CertificateAuthority } from "../services/platform/pki.ts";
import { call, type TestApp } from "./_helpers.ts";
import { freeLoopbackPort, MOSQUITTO_BIN } from "./_mosquitto.ts";

/** Where the dynamic-security plugin is looked for. */
export const DYNSEC_PLUGIN_PATHS = [
  Deno.env.get("MOSQUITTO_DYNSEC_PLUGIN"),
  "/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so",
  "/usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so",
  "/usr/lib/mosquitto_dynamic_security.so",
  "/usr/local/lib/mosquitto_dynamic_security.so",
].filter((p): p is string => !!p);

/** A running broker. */
export interface SecureMosquitto {
  /** `mqtts://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** The broker's log so far (for failure messages). */
  log(): Promise<string>;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The plugin file; throws naming every place looked at when there is none. */
export function dynsecPlugin(): string {
  const found = DYNSEC_PLUGIN_PATHS.find(isFile);
  if (!found) {
    throw new Error(
      `Mosquitto's dynamic-security plugin was not found (looked at ${
        DYNSEC_PLUGIN_PATHS.join(", ")
      }). Install the mosquitto package (2.0 or later; scripts/run.sh test does) or set MOSQUITTO_DYNSEC_PLUGIN.`,
    );
  }
  return found;
}

/** Starts the broker with `admin` as the plugin's admin account. */
export async function startSecureMosquitto(
  pki: CertificateAuthority,
  admin: { username: string; password: string },
): Promise<SecureMosquitto> {
  if (!isFile(MOSQUITTO_BIN)) {
    throw new Error(`Mosquitto is not installed at ${MOSQUITTO_BIN} (set MOSQUITTO_BIN)`);
  }
  const plugin = dynsecPlugin();
  const dir = await Deno.makeTempDir({ prefix: "mosquitto-dynsec-" });
  const server = await pki.issueServer(["localhost", "127.0.0.1"]);
  await Deno.writeTextFile(`${dir}/ca.pem`, pki.caPem);
  await Deno.writeTextFile(`${dir}/server.pem`, server.cert_pem);
  await Deno.writeTextFile(`${dir}/server.key`, server.key_pem, { mode: 0o600 });
  const ctrl = Deno.env.get("MOSQUITTO_CTRL_BIN") ?? "mosquitto_ctrl";
  const init = await new Deno.Command(ctrl, {
    args: ["dynsec", "init", `${dir}/dynamic-security.json`, admin.username, admin.password],
    stdout: "null",
    stderr: "piped",
  }).output().catch((e) => {
    throw new Error(`${ctrl} could not run (it comes with the mosquitto package): ${e}`);
  });
  if (!init.success) {
    throw new Error(`mosquitto_ctrl dynsec init failed: ${new TextDecoder().decode(init.stderr)}`);
  }
  const port = freeLoopbackPort();
  const config = [
    "per_listener_settings false",
    "allow_anonymous false",
    `plugin ${plugin}`,
    `plugin_opt_config_file ${dir}/dynamic-security.json`,
    `listener ${port} 127.0.0.1`,
    `cafile ${dir}/ca.pem`,
    `certfile ${dir}/server.pem`,
    `keyfile ${dir}/server.key`,
    "require_certificate true",
    "tls_version tlsv1.2",
    // Tests may run as root; Mosquitto would otherwise switch to a user that cannot
    // read the temporary folder.
    "user root",
    "persistence false",
    `log_dest file ${dir}/mosquitto.log`,
    "log_type error",
    "log_type warning",
    "log_type notice",
    "log_type information",
  ];
  await Deno.writeTextFile(`${dir}/mosquitto.conf`, config.join("\n") + "\n");
  const proc = new Deno.Command(MOSQUITTO_BIN, {
    args: ["-c", `${dir}/mosquitto.conf`],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(proc.stderr).text();
  let exited = false;
  proc.status.then(() => exited = true);
  const log = () => Deno.readTextFile(`${dir}/mosquitto.log`).catch(() => "");
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exited) {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      throw new Error(`mosquitto exited at start: ${await stderr}`);
    }
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      break;
    } catch {
      if (Date.now() > deadline) {
        proc.kill("SIGKILL");
        await proc.status;
        throw new Error(`mosquitto did not listen on ${port} within 10 s: ${await log()}`);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  return {
    url: `mqtts://127.0.0.1:${port}`,
    port,
    log,
    async close() {
      try {
        proc.kill("SIGTERM");
      } catch {
        // already gone
      }
      await proc.status;
      await stderr;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** The sensor's certificate files as the admin downloads them. */
export async function download(p: { t: TestApp; token: string }, sensor: number) {
  const file = async (kind: string) => {
    const res = await call(p.t, "GET", `/api/devices/${sensor}/certificates/${kind}`, {
      token: p.token,
    });
    assert.equal(res.status, 200, `download ${kind}`);
    return await res.text();
  };
  return { ca: await file("ca"), cert: await file("cert"), key: await file("key") };
}

/** How a connection attempt ended: "connected", a CONNACK code, or the error code. */
export async function attempt(
  url: string,
  o: { username: string; password: string; ca: string; cert?: string; key?: string },
): Promise<{ outcome: string | number; client: MqttClient }> {
  const client = mqtt.connect(url, {
    ...o,
    clientId: `t-${crypto.randomUUID().slice(0, 8)}`,
    reconnectPeriod: 0,
    connectTimeout: 5_000,
    protocolVersion: 4,
  });
  client.on("error", () => {});
  const outcome = await new Promise<string | number>((resolve) => {
    client.once("connect", () => resolve("connected"));
    client.once("error", (e: Error & { code?: string | number }) => resolve(e.code ?? e.message));
    client.once("close", () => resolve("closed"));
  });
  return { outcome, client };
}

/** The outcome of a connection attempt (see {@link attempt}), the client closed again. */
export async function outcomeOf(
  url: string,
  o: { username: string; password: string; ca: string; cert?: string; key?: string },
): Promise<string | number> {
  const { outcome, client } = await attempt(url, o);
  await client.endAsync(true);
  return outcome;
}
