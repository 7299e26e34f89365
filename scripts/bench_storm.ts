/**
 * `deno task bench` (storm): the portal restarted on a fleet whose meters never connected. When
 * their silence runs out, ingest's sweep hands them all to the device status at once; this
 * measures what that costs the real portal (`main.ts` on loopback, its embedded broker, a
 * silence of 10 s).
 *
 * For each fleet size (default 1,000 and 10,000 meters, 10 a station, a tenant each) a data
 * folder is seeded once through the stores, then copied for two runs of the portal:
 *
 * 1. quiet: seconds from the end of the silence until every device was handled (the log lines
 *    of the status sweep, or one line per device), and the CPU seconds the process used in that
 *    time; then SIGTERM and the seconds until the process ended;
 * 2. under load: `wrk` (one connection each) on `/admin` as the admin and on `/user` as a
 *    tenant, in 5 s rounds from the end of the silence until the devices are handled; the worst
 *    round's p95 of each.
 *
 * Targets: settled in under 5 s, `/admin` p95 under 200 ms. A run gives up `--cap` seconds
 * (default 120) after the silence ended and says how many devices were handled by then.
 * Options: `--sizes 1000,10000`, `--cap N`, `--connected` (the meters and stations were online
 * until the restart: every one goes offline, with its events and notices). Needs `wrk` on PATH.
 */
import { freePort } from "../tests/e2e/_browser.ts";
import { type PortalProcess, startPortalProcess } from "./_portal_process.ts";
import { LUA, signIn, wrk } from "./bench_scale.ts";
import { createBenchFleetStation, createBenchTenant } from "./_bench_devices.ts";
import { markOnline } from "../db/device_status.ts";
import { createZone } from "../db/zones.ts";
import { defaultZone } from "../core/zone.ts";
import { hashPassword } from "../services/platform/passwords.ts";

const ADMIN = { email: "admin@storm.mx", password: "storm-bench-admin-1" };
const TENANT = { email: "t1@storm.mx", password: "storm-bench-tenant-1" };
const SILENCE_S = 10;
const METERS_PER_STATION = 10;
const ROUND_S = 5;

const out = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] ? Deno.args[i + 1] : fallback;
}

/**
 * `meters` meters, 10 a station, each with a tenant, that never spoke (or, with `connected`,
 * were online until the restart, like their stations); answers the device count.
 */
async function seed(dataDir: string, meters: number, connected: boolean): Promise<number> {
  await Deno.mkdir(dataDir, { recursive: true });
  const kv = await Deno.openKv(`${dataDir}/portal.kv`);
  try {
    const zone = await createZone(kv, defaultZone("Tormenta"), Date.now());
    const now = Date.now();
    const tenantHash = await hashPassword(TENANT.password);
    const stations = Math.ceil(meters / METERS_PER_STATION);
    let made = 0;
    for (let i = 1; i <= stations; i++) {
      const { station, meters: its } = await createBenchFleetStation(kv, i, {
        units: Math.min(METERS_PER_STATION, meters - made),
        zoneId: zone.id,
        at: now,
        tenantOf: () => createBenchTenant(kv, ++made, "storm.mx", tenantHash),
      });
      if (!connected) continue;
      for (const d of [station, ...its]) await markOnline(kv, d.id, now - 3_600_000);
    }
    return meters + stations;
  } finally {
    kv.close();
  }
}

/** A started portal that counts the devices its status sweep has handled. */
interface StormPortal {
  portal: PortalProcess;
  url: string;
  /** performance.now() when the devices' silence ends. */
  expiry: number;
  /** Devices handled so far. */
  handled(): number;
  /** Resolves with performance.now() once `devices` were handled. */
  settled: Promise<number>;
}

async function startStorm(dataDir: string, devices: number): Promise<StormPortal> {
  let handled = 0;
  let done: (at: number) => void = () => {};
  const settled = new Promise<number>((resolve) => (done = resolve));
  const port = freePort();
  const portal = await startPortalProcess({
    port,
    dataDir,
    env: {
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEVICE_SILENCE_SECONDS: String(SILENCE_S),
      LOG_LEVEL: "info",
    },
    onLog(line) {
      if (!line.startsWith("{")) return;
      let entry: { message?: string; devices?: number };
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      // The sweep's summary line counts its devices; a line per device counts one.
      if (entry.message === "offline sweep") handled += entry.devices ?? 0;
      else if (entry.message === "device offline") handled++;
      else return;
      if (handled >= devices) done(performance.now());
    },
  });
  // Ingest starts tracking the devices as the portal gets ready.
  const expiry = performance.now() + SILENCE_S * 1000;
  return { portal, url: `http://127.0.0.1:${port}`, expiry, handled: () => handled, settled };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/** Waits until the storm settled or `capS` after the expiry; answers the settle time or null. */
async function settleOrCap(s: StormPortal, capS: number): Promise<number | null> {
  const cap = sleep(s.expiry + capS * 1000 - performance.now()).then(() => null);
  return await Promise.race([s.settled, cap]);
}

/** Sends SIGTERM and answers the seconds until the process ended. */
async function stopTimed(portal: PortalProcess): Promise<number> {
  const t0 = performance.now();
  const killer = setTimeout(() => {
    try {
      portal.child.kill("SIGKILL");
    } catch { /* gone */ }
  }, 300_000);
  await portal.stop();
  clearTimeout(killer);
  return round((performance.now() - t0) / 1000);
}

const round = (x: number) => Math.round(x * 10) / 10;

interface QuietResult {
  settle_s: number | null;
  handled: number;
  cpu_s: number;
  stop_s: number;
}

async function quietRun(dataDir: string, devices: number, capS: number): Promise<QuietResult> {
  const s = await startStorm(dataDir, devices);
  await sleep(s.expiry - performance.now());
  const cpu0 = await s.portal.cpuSeconds();
  const at = await settleOrCap(s, capS);
  const cpu = (await s.portal.cpuSeconds()) - cpu0;
  const handled = s.handled();
  const stop = await stopTimed(s.portal);
  return {
    settle_s: at === null ? null : round((at - s.expiry) / 1000),
    handled,
    cpu_s: Math.round(cpu * 100) / 100,
    stop_s: stop,
  };
}

interface LoadResult {
  rounds: number;
  admin_p95_ms: number;
  tenant_p95_ms: number;
  errors: number;
  /** The same before the silence ended (null when there was no time for a round). */
  idle_admin_p95_ms: number | null;
  idle_tenant_p95_ms: number | null;
}

async function loadRun(
  dataDir: string,
  devices: number,
  capS: number,
  script: string,
): Promise<LoadResult> {
  const s = await startStorm(dataDir, devices);
  try {
    const admin = await signIn(s.url, ADMIN);
    const tenant = await signIn(s.url, TENANT);
    const result: LoadResult = {
      rounds: 0,
      admin_p95_ms: 0,
      tenant_p95_ms: 0,
      errors: 0,
      idle_admin_p95_ms: null,
      idle_tenant_p95_ms: null,
    };
    for (const [path, cookie] of [["/admin", admin], ["/user", tenant]]) {
      await (await fetch(s.url + path, { headers: { cookie } })).arrayBuffer();
    }
    // Before the silence ends, when there is time for a round: the same pages at rest.
    if (s.expiry - performance.now() > (ROUND_S + 0.5) * 1000) {
      const [a, t] = await Promise.all([
        wrk(s.url + "/admin", admin, 1, ROUND_S, script),
        wrk(s.url + "/user", tenant, 1, ROUND_S, script),
      ]);
      result.idle_admin_p95_ms = a.p95_ms;
      result.idle_tenant_p95_ms = t.p95_ms;
    }
    await sleep(s.expiry - performance.now());
    let settled = false;
    s.settled.then(() => (settled = true));
    do {
      const [a, t] = await Promise.all([
        wrk(s.url + "/admin", admin, 1, ROUND_S, script),
        wrk(s.url + "/user", tenant, 1, ROUND_S, script),
      ]);
      result.rounds++;
      result.admin_p95_ms = Math.max(result.admin_p95_ms, a.p95_ms);
      result.tenant_p95_ms = Math.max(result.tenant_p95_ms, t.p95_ms);
      result.errors += a.errors + t.errors;
    } while (!settled && performance.now() < s.expiry + capS * 1000);
    return result;
  } finally {
    await stopTimed(s.portal);
  }
}

/** A fresh copy of the seeded folder (a run may change its store). */
async function copyOf(seeded: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "portal-storm-run-" });
  const cp = await new Deno.Command("cp", { args: ["-a", `${seeded}/.`, dir] }).output();
  if (!cp.success) throw new Error(`cp ${seeded}: ${new TextDecoder().decode(cp.stderr)}`);
  return dir;
}

if (import.meta.main) {
  const sizes = arg("sizes", "1000,10000").split(",").map(Number).filter((n) => n > 0);
  const capS = Number(arg("cap", "120")) || 120;
  const connected = Deno.args.includes("--connected");
  const script = await Deno.makeTempFile({ suffix: ".lua" });
  await Deno.writeTextFile(script, LUA);
  const results = [];
  try {
    for (const meters of sizes) {
      const seeded = await Deno.makeTempDir({ prefix: "portal-storm-" });
      try {
        out(`seeding ${meters} meters that ${connected ? "were connected" : "never connected"}...`);
        const devices = await seed(seeded, meters, connected);
        const quietDir = await copyOf(seeded);
        const quiet = await quietRun(quietDir, devices, capS).finally(() =>
          Deno.remove(quietDir, { recursive: true }).catch(() => {})
        );
        const loadDir = await copyOf(seeded);
        const load = await loadRun(loadDir, devices, capS, script).finally(() =>
          Deno.remove(loadDir, { recursive: true }).catch(() => {})
        );
        const settled = quiet.settle_s === null
          ? `not settled after ${capS} s (${quiet.handled} of ${devices} devices handled)`
          : `settled in ${quiet.settle_s} s`;
        out(
          `${meters} meters (${devices} devices): ${settled}, ${quiet.cpu_s} CPU s; ` +
            `/admin p95 ${load.admin_p95_ms} ms, tenant /user p95 ${load.tenant_p95_ms} ms ` +
            `(worst of ${load.rounds} × ${ROUND_S} s, ${load.errors} errors; before the storm ` +
            `${load.idle_admin_p95_ms ?? "-"} ms and ${load.idle_tenant_p95_ms ?? "-"} ms); ` +
            `SIGTERM ended it in ${quiet.stop_s} s`,
        );
        const ok = quiet.settle_s !== null && quiet.settle_s < 5 && load.admin_p95_ms < 200;
        out(`  targets (settle < 5 s, /admin p95 < 200 ms): ${ok ? "ok" : "MISSED"}`);
        results.push({ meters, devices, connected, ...quiet, ...load });
      } finally {
        await Deno.remove(seeded, { recursive: true }).catch(() => {});
      }
    }
    out(JSON.stringify({ storm: results }));
  } finally {
    await Deno.remove(script).catch(() => {});
  }
}
