/**
 * Signed-in pages under load, measured with `wrk` (a real load generator, two threads, 32
 * connections) against the real portal (`main.ts --demo` on a temporary data folder, loopback,
 * the V8 flags of `deno task start`):
 *
 * - requests per second of each signed-in page (tenant `/user`, `/user/billing`, owner
 *   `/customer`, `/admin`, `/admin/users`) beside `/login` in the same run, and a Hono
 *   hello-world (target: every signed-in page at least 1,000 req/s);
 * - the same pages each asked at an address of its own (`?fresh=n`), so that none is answered
 *   from the pages kept by their ETag: what a page costs when its data changed;
 * - the dashboards' 30-s refresh: the tenant's `/user` asked again with `If-None-Match` of the
 *   ETag it answered (unchanged data: a 304 without a body), its refreshes per second and p95
 *   (target 1,700/s with p95 under 50 ms: 50,000 open tenant dashboards at 30 s each).
 *
 * Options: `--seconds N` (per wrk run, default 8), `--json` (one JSON line at the end).
 * Needs `wrk` on the PATH and the browser build (`deno task build`).
 */
import { startPortalProcess } from "./_portal_process.ts";
import { startHello } from "./bench.ts";
import { LUA, signIn, wrk } from "./bench_scale.ts";
import { DEMO_PASSWORD } from "../services/demo.ts";

const out = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

const ACCOUNTS = {
  admin: { email: "admin@bench.mx", password: "bench-pages-admin-1" },
  customer: { email: "cliente@demo.mx", password: DEMO_PASSWORD },
  user: { email: "inquilino@demo.mx", password: DEMO_PASSWORD },
};
type Who = keyof typeof ACCOUNTS | "anonymous";

const PAGES: { path: string; who: Who }[] = [
  { path: "/login", who: "anonymous" },
  { path: "/user", who: "user" },
  { path: "/user/billing", who: "user" },
  { path: "/customer", who: "customer" },
  { path: "/admin", who: "admin" },
  { path: "/admin/users", who: "admin" },
];

/** Pages at least this fast under load (req/s); refreshes per second and their p95 (ms). */
const TARGET = { pageRps: 1_000, refreshRps: 1_700, refreshP95Ms: 50 };

function num(flag: string, fallback: number): number {
  const i = Deno.args.indexOf(flag);
  const n = i >= 0 ? Number(Deno.args[i + 1]) : fallback;
  if (!Number.isFinite(n) || n <= 0) throw new RangeError(`${flag} needs a positive number`);
  return n;
}

/**
 * A wrk script for the dashboard's refresh: each connection sends the ETag of its last answer
 * as If-None-Match (starting from `etag`), as the page's LiveRefresh does; the report adds the
 * number of 304 answers.
 */
function refreshScript(cookie: string, etag: string | null): string {
  return `
wrk.headers["Cookie"] = ${JSON.stringify(cookie)}
local threads = {}
function setup(thread) table.insert(threads, thread) end
etag = ${JSON.stringify(etag ?? "")}
not_modified = 0
-- The request is formatted again only when the ETag changed (wrk's own cost stays small).
local formatted, formatted_etag = nil, nil
request = function()
  if formatted == nil or formatted_etag ~= etag then
    if etag ~= "" then wrk.headers["If-None-Match"] = etag end
    formatted, formatted_etag = wrk.format(), etag
  end
  return formatted
end
response = function(status, headers, body)
  local e = headers["etag"] or headers["ETag"]
  if e then etag = e end
  if status == 304 then not_modified = not_modified + 1 end
end
${
    LUA.replace(
      "done = function(summary, latency, requests)",
      `done = function(summary, latency, requests)
  local n = 0
  for _, t in ipairs(threads) do n = n + t:get("not_modified") end
  io.write(string.format("NOT_MODIFIED %d\\n", n))`,
    )
  }
`;
}

/**
 * A wrk script asking `path` each time at an address of its own (a query parameter the page
 * ignores), so that no request finds the page kept under its tag: what a page costs when
 * its data changed (loaded, rendered), with `headers`.
 */
function coldScript(path: string, headers: Record<string, string>): string {
  const sep = path.includes("?") ? "&" : "?";
  return scriptWith(headers) + `
n = 0
request = function()
  n = n + 1
  return wrk.format(nil, ${JSON.stringify(path + sep + "fresh=")} .. n)
end
`;
}

/** A wrk script sending `headers` with each request, closing with {@link LUA}'s report. */
function scriptWith(headers: Record<string, string>): string {
  const lines = Object.entries(headers).map(([k, v]) =>
    `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`
  );
  return lines.join("\n") + "\n" + LUA;
}

async function main() {
  const seconds = num("--seconds", 8);
  const port = 20000 + Math.floor(Math.random() * 5000);
  const dataDir = await Deno.makeTempDir({ prefix: "portal-bench-pages-" });
  const scriptDir = await Deno.makeTempDir({ prefix: "bench-pages-wrk-" });
  const script = async (name: string, headers: Record<string, string>) => {
    const file = `${scriptDir}/${name}.lua`;
    await Deno.writeTextFile(file, scriptWith(headers));
    return file;
  };
  const portal = await startPortalProcess({
    port,
    dataDir,
    demo: true,
    env: { ADMIN_EMAIL: ACCOUNTS.admin.email, ADMIN_PASSWORD: ACCOUNTS.admin.password },
  });
  const base = `http://127.0.0.1:${port}`;
  const rows: { name: string; rps: number; p50_ms: number; p95_ms: number; errors: number }[] = [];
  let refresh = null;
  try {
    const cookies: Partial<Record<Who, string>> = {};
    for (const who of ["admin", "customer", "user"] as const) {
      cookies[who] = await signIn(base, ACCOUNTS[who]);
    }
    for (const p of PAGES) {
      const cookie = cookies[p.who];
      const res = await fetch(base + p.path, { headers: cookie ? { cookie } : {} });
      await res.body?.cancel();
      if (res.status !== 200) throw new Error(`GET ${p.path} as ${p.who}: ${res.status}`);
      const file = await script(`page${rows.length}`, cookie ? { Cookie: cookie } : {});
      const r = await rate(base + p.path, seconds, file);
      rows.push({ name: `${p.path} (${p.who})`, ...r });
      if (!cookie) continue;
      const cold = `${scriptDir}/cold${rows.length}.lua`;
      await Deno.writeTextFile(cold, coldScript(p.path, { Cookie: cookie }));
      const c = await rate(base + p.path, seconds, cold);
      rows.push({ name: `  loaded each time`, ...c });
    }
    // The tenant dashboard's refresh: asked with the ETag of its last answer.
    const first = await fetch(`${base}/user`, { headers: { cookie: cookies.user! } });
    await first.body?.cancel();
    const etag = first.headers.get("etag");
    const file = `${scriptDir}/refresh.lua`;
    await Deno.writeTextFile(file, refreshScript(cookies.user!, etag));
    const run = await wrkWithNotModified(`${base}/user`, seconds, file);
    refresh = { etag: !!etag, ...run };
  } finally {
    await portal.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
  const hello = await startHello();
  try {
    const file = await script("hello", {});
    rows.push({ name: "Hono hello-world", ...(await rate(hello.url, seconds, file)) });
  } finally {
    await hello.close();
    await Deno.remove(scriptDir, { recursive: true }).catch(() => {});
  }

  out(`Pages under load (wrk -t2 -c32 -d${seconds}s, loopback, demo data)`);
  out("page                          req/s   p50 ms   p95 ms  errors  target");
  for (const r of rows) {
    const signedIn = r.name.startsWith("/") && !r.name.startsWith("/login");
    const mark = signedIn ? (r.rps >= TARGET.pageRps ? "ok" : "BELOW") + " 1000" : "";
    out(
      `${r.name.padEnd(28)} ${String(r.rps).padStart(6)} ${r.p50_ms.toFixed(1).padStart(8)} ${
        r.p95_ms.toFixed(1).padStart(8)
      } ${String(r.errors).padStart(7)}  ${mark}`,
    );
  }
  if (refresh) {
    const ok = refresh.rps >= TARGET.refreshRps && refresh.p95_ms < TARGET.refreshP95Ms;
    out(
      `tenant dashboard refresh (If-None-Match of the last answer, ${
        (refresh.not_modified_share * 100).toFixed(1)
      } % answered 304): ${refresh.rps}/s, ` +
        `p95 ${refresh.p95_ms} ms -> ${
          (refresh.rps * 30).toLocaleString("en")
        } open dashboards at 30 s ` +
        `(${ok ? "ok" : "BELOW"} target ${TARGET.refreshRps}/s, p95 < ${TARGET.refreshP95Ms} ms)`,
    );
  }
  if (Deno.args.includes("--json")) out(JSON.stringify({ pages: rows, refresh }));
}

/** {@link wrk} at 32 connections: its figures without its printed output. */
async function rate(url: string, seconds: number, script: string) {
  const { output: _, ...run } = await wrk(url, null, 32, seconds, script);
  return run;
}

/** {@link wrk} of a refresh script, with the share of its answers that were 304. */
async function wrkWithNotModified(url: string, seconds: number, script: string) {
  const { output, ...run } = await wrk(url, null, 32, seconds, script);
  const n = /NOT_MODIFIED (\d+)/.exec(output);
  if (!n) throw new Error(`wrk ${url}: no NOT_MODIFIED line in ${output}`);
  const share = run.requests ? Math.round(Number(n[1]) / run.requests * 1000) / 1000 : 0;
  return { ...run, not_modified_share: share };
}

if (import.meta.main) await main();
