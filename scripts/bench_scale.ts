/**
 * `deno task bench:scale`: what the admin's pages and lists cost as the fleet grows.
 *
 * For each fleet size (default 20 and 10,000 stations) a fresh data folder is filled through
 * the stores (no HTTP, no password hashing but for the two accounts that sign in): a zone,
 * the stations with 2 units each, a meter per unit, a tenant per meter, and a unit bill per
 * unit in one period. The real portal (`main.ts`) is then started on loopback on that folder
 * and measured with `wrk`:
 *
 * - server time of each page (p50/p95 over one connection, so no queueing) and its HTML bytes;
 * - the ratio of p95 at the largest size to p95 at the smallest (target at most 2) and p95 at
 *   the largest size (target under 100 ms);
 * - GET /api/devices?type=sensor, every meter in one answer, median of 5 (target under 500 ms
 *   at 20,000; the first answer after a device write reads every device again);
 * - requests per second of /admin/users and of a tenant page at 32 connections, beside a Hono
 *   hello-world measured in the same run; and of two portals (replicas, `INGEST=off`) on the same
 *   folder behind a round-robin proxy, beside one portal behind that proxy (scripts/_bench_pair.ts).
 *
 * Options: `--sizes 20,10000`, `--seconds N` (per wrk run, default 10: shorter runs leave p95
 * to a handful of requests), `--keep DIR` (seed into DIR/<size> and keep it; a folder already
 * seeded there is measured again without seeding, which is how a change is profiled against
 * the same fleet). Needs `wrk` on PATH.
 */
import { type SpawnedPortal, spawnPortal } from "../tests/e2e/_browser.ts";
import { startHello } from "./bench.ts";
import { billPeriod, unitBillDraft } from "../tests/_bills.ts";
import { createBenchFleetStation, createBenchTenant } from "./_bench_devices.ts";
import { markOffline, markOnline } from "../db/device_status.ts";
import { createZone } from "../db/zones.ts";
import { writeStationsBills } from "../db/bills_run.ts";
import { defaultZone } from "../core/zone.ts";
import { hashPassword } from "../services/platform/passwords.ts";
import { type PairRps, pairRps } from "./_bench_pair.ts";

const ADMIN = { email: "admin@scale.mx", password: "scale-bench-admin-1" };
const TENANT = { email: "t1@scale.mx", password: "scale-bench-tenant-1" };
const PERIOD = "2026-09";

const out = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

function arg(name: string, fallback: string): string {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 && Deno.args[i + 1] ? Deno.args[i + 1] : fallback;
}

// ---- the fleet ------------------------------------------------------------------------------

/**
 * Fills `kv` with `n` stations (2 units, 2 meters, 2 tenants, 2 unit bills each), every device
 * online for two days but for the meters' disconnections of the last day (see `statuses`).
 */
async function seed(kv: Deno.Kv, n: number): Promise<{ zoneId: number }> {
  const zone = await createZone(kv, defaultZone("Escala"), Date.now());
  const now = Date.now();
  const devices: number[] = [];
  const tenantHash = await hashPassword(TENANT.password);
  let batch: Parameters<typeof writeStationsBills>[2][number][] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    if (!(await writeStationsBills(kv, PERIOD, batch, Date.now()))) throw new Error("bills");
    batch = [];
  };
  let tenantNo = 0;
  for (let i = 1; i <= n; i++) {
    const { station: st, meters } = await createBenchFleetStation(kv, i, {
      units: 2,
      zoneId: zone.id,
      at: now,
      tenantOf: () => createBenchTenant(kv, ++tenantNo, "scale.mx", tenantHash),
    });
    const units = st.config.station!.units;
    devices.push(st.id, ...meters.map((m) => m.id));
    batch.push({
      stationId: st.id,
      units: units.map((u, k) => ({
        draft: unitBillDraft({
          unit_id: u.id,
          station_id: st.id,
          zone_id: zone.id,
          tenant_id: tenantNo - 1 + k,
          energy_consumption: 100 + (i % 50),
          ...billPeriod(PERIOD),
        }),
        prev: { key: [], value: null, versionstamp: null },
      })),
      customer: null,
    });
    if (batch.length >= 20) await flush();
    if (i % 1000 === 0) out(`  ${i} stations`);
  }
  await flush();
  await statuses(kv, devices, now);
  return { zoneId: zone.id };
}

/**
 * Every device online since two days before `now`; one device in 50 was offline from 3 h to
 * 1 h ago, and one in 200 has been offline for the last 30 minutes.
 */
async function statuses(kv: Deno.Kv, ids: readonly number[], now: number) {
  const H = 3_600_000;
  for (const [k, id] of ids.entries()) {
    await markOnline(kv, id, now - 48 * H);
    if (k % 50 === 7) {
      await markOffline(kv, id, now - 3 * H, "silence", []);
      await markOnline(kv, id, now - H);
    }
    if (k % 200 === 11) await markOffline(kv, id, now - H / 2, "will", []);
  }
}

// ---- measuring ------------------------------------------------------------------------------

/** wrk's closing report as one line: requests, duration (µs), p50 and p95 (µs), errors. */
export const LUA = `
done = function(summary, latency, requests)
  io.write(string.format("RESULT %d %d %d %d %d\\n", summary.requests, summary.duration,
    latency:percentile(50), latency:percentile(95), summary.errors.status + summary.errors.connect
    + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
`;

/** What one wrk run measured, and what it printed (a script's own lines too). */
interface WrkResult {
  requests: number;
  rps: number;
  p50_ms: number;
  p95_ms: number;
  errors: number;
  output: string;
}

/** Runs wrk against `url` (with the cookie, if any) using the {@link LUA} script file `script`. */
export async function wrk(
  url: string,
  cookie: string | null,
  connections: number,
  seconds: number,
  script: string,
): Promise<WrkResult> {
  const args = [
    `-t${Math.min(2, connections)}`,
    `-c${connections}`,
    `-d${seconds}s`,
    "--timeout",
    "30s",
    "-s",
    script,
    ...(cookie ? ["-H", `Cookie: ${cookie}`] : []),
    url,
  ];
  const res = await new Deno.Command("wrk", { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder().decode(res.stdout);
  const m = /RESULT (\d+) (\d+) (\d+) (\d+) (\d+)/.exec(text);
  if (!m) throw new Error(`wrk ${url}: ${text} ${new TextDecoder().decode(res.stderr)}`);
  const [requests, durationUs, p50, p95, errors] = m.slice(1).map(Number);
  return {
    requests,
    rps: Math.round(requests / (durationUs / 1e6)),
    p50_ms: Math.round(p50 / 100) / 10,
    p95_ms: Math.round(p95 / 100) / 10,
    errors,
    output: text,
  };
}

/**
 * Signs in as a browser does: it loaded the sign-in page first (whose answer sets the cookie
 * saying its stylesheets were sent, so later pages link them instead of carrying them inline);
 * answers the cookie header value with that cookie and the access token.
 */
export async function signIn(base: string, who: { email: string; password: string }) {
  const login = await fetch(`${base}/login`);
  await login.body?.cancel();
  const styles = login.headers.getSetCookie().map((c) => c.split(";")[0])
    .find((c) => c.startsWith("styles="));
  const res = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(who),
  });
  if (!res.ok) throw new Error(`sign-in of ${who.email}: ${res.status}`);
  const token = `token=${(await res.json()).access_token}`;
  return styles ? `${token}; ${styles}` : token;
}

async function bytesOf(url: string, cookie: string): Promise<number> {
  const res = await fetch(url, { headers: { cookie, "accept-encoding": "identity" } });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return (await res.arrayBuffer()).byteLength;
}

/**
 * Median time of `runs` sequential GETs of `url` (ms: until the whole answer has arrived; the
 * client's own parsing is not timed) and the item count of the answer.
 */
async function timed(url: string, cookie: string, runs: number) {
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { cookie } });
    const bytes = await res.arrayBuffer();
    times.push(performance.now() - t0);
    count = JSON.parse(new TextDecoder().decode(bytes)).devices?.length ?? 0;
  }
  times.sort((a, b) => a - b);
  return { ms: Math.round(times[Math.floor(runs / 2)]), count };
}

interface SizeResult {
  stations: number;
  seed_s: number;
  pages: Record<string, { p50_ms: number; p95_ms: number; bytes: number }>;
  api_sensors: { ms: number; count: number };
  rps: Record<string, number>;
  /** The same pages through a round-robin proxy: one portal behind it, and two. */
  proxied: PairRps;
}

const PAGES = (zoneId: number) => [
  "/admin",
  "/admin/devices",
  "/admin/users?tab=tenants",
  `/admin/units-billing?zone_id=${zoneId}&year=${PERIOD.slice(0, 4)}&period=${PERIOD}`,
  "/api/devices/stats",
  // Beside the targets: its cost follows the fleet's disconnections (one in 50 devices had
  // an outage in the seeded day), which grow with the fleet.
  "/admin/stats",
];

/** The pages the p95 and ratio targets are about (every page above but the last). */
const TARGET_PAGES = 5;

async function measureSize(
  n: number,
  seconds: number,
  script: string,
  keep: string | null,
): Promise<SizeResult> {
  const dataDir = keep ? `${keep}/${n}` : await Deno.makeTempDir({ prefix: "portal-scale-" });
  let portal: SpawnedPortal | null = null;
  try {
    const t0 = performance.now();
    const { zoneId } = await seeded(dataDir, n);
    const seedS = Math.round((performance.now() - t0) / 100) / 10;
    portal = await spawnPortal({
      env: {
        DATA_DIR: dataDir,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: "error",
      },
      timeoutMs: 300_000,
    });
    const admin = await signIn(portal.url, ADMIN);
    const tenant = await signIn(portal.url, TENANT);
    const pages: SizeResult["pages"] = {};
    for (const path of PAGES(zoneId)) {
      const url = portal.url + path;
      const bytes = await bytesOf(url, admin);
      const w = await wrk(url, admin, 1, seconds, script);
      if (w.errors) throw new Error(`${path}: ${w.errors} errors`);
      pages[path.split("?zone_id")[0]] = { p50_ms: w.p50_ms, p95_ms: w.p95_ms, bytes };
    }
    const apiSensors = await timed(`${portal.url}/api/devices?type=sensor`, admin, 5);
    const rps: Record<string, number> = {};
    rps["/admin/users"] = (await wrk(portal.url + "/admin/users", admin, 32, seconds, script)).rps;
    rps["/user (tenant)"] = (await wrk(portal.url + "/user", tenant, 32, seconds, script)).rps;
    await portal.close();
    portal = null;
    const proxied = await pairRps(
      dataDir,
      [{ path: "/admin/users", cookie: admin }, { path: "/user", cookie: tenant }],
      async (url, cookie) => (await wrk(url, cookie, 32, seconds, script)).rps,
    );
    return { stations: n, seed_s: seedS, pages, api_sensors: apiSensors, rps, proxied };
  } finally {
    await portal?.close();
    if (!keep) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}

/** Seeds `dataDir` with `n` stations, unless a previous `--keep` run already did. */
async function seeded(dataDir: string, n: number): Promise<{ zoneId: number }> {
  const marker = `${dataDir}/seeded.json`;
  try {
    return JSON.parse(await Deno.readTextFile(marker));
  } catch {
    // not seeded yet
  }
  out(`seeding ${n} stations...`);
  await Deno.mkdir(dataDir, { recursive: true });
  const kv = await Deno.openKv(`${dataDir}/portal.kv`);
  const result = await seed(kv, n);
  kv.close();
  await Deno.writeTextFile(marker, JSON.stringify(result));
  return result;
}

// ---- main -------------------------------------------------------------------------------------

if (import.meta.main) {
  const sizes = arg("sizes", "20,10000").split(",").map(Number).filter((n) => n > 0);
  const seconds = Number(arg("seconds", "10")) || 10;
  const keep = arg("keep", "") || null;
  const script = await Deno.makeTempFile({ suffix: ".lua" });
  await Deno.writeTextFile(script, LUA);
  const hello = await startHello();
  try {
    const results: SizeResult[] = [];
    for (const n of sizes) results.push(await measureSize(n, seconds, script, keep));
    const helloRps = (await wrk(hello.url, null, 32, seconds, script)).rps;
    const small = results[0], large = results[results.length - 1];
    out();
    out(
      `fleet sizes: ${
        results.map((r) => `${r.stations} stations (seeded in ${r.seed_s} s)`).join(", ")
      }`,
    );
    out();
    const head = [
      "page",
      ...results.flatMap((
        r,
      ) => [`p50 @${r.stations}`, `p95 @${r.stations}`, `bytes @${r.stations}`]),
      `p95 ratio ${large.stations}/${small.stations}`,
    ];
    out(head.join(" | "));
    for (const path of Object.keys(small.pages)) {
      const cells = results.flatMap((r) => {
        const p = r.pages[path];
        return [`${p.p50_ms} ms`, `${p.p95_ms} ms`, String(p.bytes)];
      });
      const ratio = large.pages[path].p95_ms / Math.max(small.pages[path].p95_ms, 0.1);
      out([path, ...cells, ratio.toFixed(2)].join(" | "));
    }
    out();
    for (const r of results) {
      out(
        `GET /api/devices?type=sensor @${r.stations}: ${r.api_sensors.count} devices in ${r.api_sensors.ms} ms`,
      );
    }
    out();
    for (const r of results) {
      out(
        `req/s @${r.stations} (32 connections): ${
          Object.entries(r.rps).map(([k, v]) => `${k} ${v}`).join(", ")
        }; hello-world ${helloRps}`,
      );
      const { one, pair, proxy } = r.proxied;
      out(
        `req/s @${r.stations} (32 connections) through a round-robin proxy (${proxy}), one portal | two: ${
          Object.keys(one).map((k) => `${k} ${one[k]} | ${pair[k]}`).join(", ")
        }`,
      );
    }
    const targeted = Object.keys(small.pages).slice(0, TARGET_PAGES);
    const worstP95 = Math.max(...targeted.map((k) => large.pages[k].p95_ms));
    const worstRatio = Math.max(
      ...targeted.map((k) => large.pages[k].p95_ms / Math.max(small.pages[k].p95_ms, 0.1)),
    );
    out();
    out(
      `targets @${large.stations} (first ${TARGET_PAGES} pages): worst p95 ${worstP95} ms (< 100), worst p95 ratio ${
        worstRatio.toFixed(2)
      } (<= 2), API ${large.api_sensors.ms} ms (< 500)`,
    );
    out(JSON.stringify({ results, hello_rps: helloRps }));
  } finally {
    await hello.close();
    await Deno.remove(script).catch(() => {});
  }
}
