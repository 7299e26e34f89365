/**
 * Memory of a demo portal process (HTTP, embedded broker, ingest with three live meters,
 * SQLite telemetry), read from `/proc/<pid>/status` (VmRSS, VmHWM):
 *
 * - idle: RSS once the demo is seeded and the portal has been left alone for a while;
 * - load: RSS right after 30 s of wrk on `/login` and on a signed-in page (the tenant's
 *   home, with the token cookie) at the same time, and again after a rest;
 * - the high-water mark of the whole run.
 *
 * Targets: idle under 200 MB, under 300 MB after the load. Needs `wrk` on the PATH and the
 * browser build (`deno task build`). Run: `deno run -A scripts/bench_memory.ts`
 * (`--idle-seconds N`, `--load-seconds N` to change the waits; `--json` for one JSON line).
 */
import { startPortalProcess } from "./_portal_process.ts";
import { parseArgs } from "node:util";

const args = parseArgs({
  args: Deno.args,
  options: {
    "idle-seconds": { type: "string", default: "60" },
    "load-seconds": { type: "string", default: "30" },
    json: { type: "boolean", default: false },
  },
}).values;
const idleSeconds = Number(args["idle-seconds"]);
const loadSeconds = Number(args["load-seconds"]);

const IDLE_TARGET_MB = 200;
const LOAD_TARGET_MB = 300;

const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const port = 19000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const dataDir = await Deno.makeTempDir({ prefix: "portal-bench-memory-" });
const mb = (kb: number) => Math.round(kb / 102.4) / 10;

/** Runs wrk on `url` for `seconds`; answers its requests per second. */
async function wrk(url: string, seconds: number, cookie = ""): Promise<number> {
  const res = await new Deno.Command("wrk", {
    args: [
      "-t1",
      "-c8",
      `-d${seconds}s`,
      ...(cookie ? ["-H", `Cookie: ${cookie}`] : []),
      url,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(res.stdout);
  if (/Non-2xx or 3xx responses/.test(text)) throw new Error(`wrk ${url}: refused\n${text}`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? NaN);
}

const started = performance.now();
const portal = await startPortalProcess({ port, dataDir, demo: true });
const status = (field: "VmRSS" | "VmHWM") => portal.memoryKb(field);
try {
  const log = portal.output;
  const readySeconds = (performance.now() - started) / 1000;
  const tenant = /user\s+(\S+@\S+) \/ (\S+)/.exec(log);
  if (!tenant) throw new Error(`no demo tenant in the portal's output:\n${log}`);
  const startHwm = await status("VmHWM");

  // Idle: nothing but the demo meters (every 10 s) and the portal's own timers.
  await sleep(idleSeconds * 1000);
  const idle = await status("VmRSS");

  const login = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: tenant[1], password: tenant[2] }),
  });
  const { access_token } = await login.json();
  if (!access_token) throw new Error(`the demo tenant could not sign in: ${login.status}`);
  const page = await fetch(`${base}/user`, { headers: { cookie: `token=${access_token}` } });
  await page.body?.cancel();
  if (page.status !== 200) throw new Error(`GET /user answered ${page.status}`);

  const [loginRps, pageRps] = await Promise.all([
    wrk(`${base}/login`, loadSeconds),
    wrk(`${base}/user`, loadSeconds, `token=${access_token}`),
  ]);
  const afterLoad = await status("VmRSS");
  await sleep(30_000);
  const rested = await status("VmRSS");
  const hwm = await status("VmHWM");

  const figures = {
    ready_s: Math.round(readySeconds * 10) / 10,
    start_peak_mb: mb(startHwm),
    idle_mb: mb(idle),
    idle_after_s: idleSeconds,
    login_rps: Math.round(loginRps),
    page_rps: Math.round(pageRps),
    after_load_mb: mb(afterLoad),
    after_rest_mb: mb(rested),
    peak_mb: mb(hwm),
  };
  if (args.json) out(JSON.stringify(figures));
  else {
    const verdict = (v: number, target: number) => v < target ? "ok" : `OVER ${target} MB`;
    out(
      `memory: demo portal ready in ${figures.ready_s} s (peak while seeding ${figures.start_peak_mb} MB)`,
    );
    out(
      `memory: idle RSS ${figures.idle_mb} MB after ${idleSeconds} s ` +
        `(target < ${IDLE_TARGET_MB} MB: ${verdict(figures.idle_mb, IDLE_TARGET_MB)})`,
    );
    out(
      `memory: RSS ${figures.after_load_mb} MB after ${loadSeconds} s of wrk on /login ` +
        `(${figures.login_rps}/s) and /user (${figures.page_rps}/s) ` +
        `(target < ${LOAD_TARGET_MB} MB: ${verdict(figures.after_load_mb, LOAD_TARGET_MB)}); ` +
        `${figures.after_rest_mb} MB 30 s later; high-water mark ${figures.peak_mb} MB`,
    );
  }
} finally {
  await portal.stop();
  await Deno.remove(dataDir, { recursive: true });
}
