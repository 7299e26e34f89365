/**
 * `deno task bench`: what each page built so far costs on first load, and how many
 * requests per second the portal serves for the admin users page beside a Hono
 * hello-world measured in the same run.
 *
 * 1. Bytes: the real portal (`main.ts --demo` on a temporary data folder, loopback only)
 *    is asked for each page as the role that sees it; the HTML, the stylesheet and every
 *    module script and modulepreload on the page are fetched and gzip-compressed here
 *    (level of `CompressionStream`); fonts (woff2 named by the stylesheet) count as served.
 *    The total is checked against the budgets: 40 KiB for a page, 120 KiB for a page that
 *    draws a chart (printed as "ok" or "OVER", not a failure).
 * 2. Throughput: a closed loop of concurrent `fetch` calls from this process for a fixed
 *    time against GET /admin/users (signed-in admin, cookie) on the portal, then against
 *    a Hono hello-world served by a child process (`bench.ts --hello PORT`).
 *
 * Prints a table and, as its last line, the figures as JSON (also written to
 * `.build/bench.json`). Options: `--seconds N` (default 5), `--concurrency N` (default 32),
 * `--bytes-only` (the first-load figures alone).
 */
import { Hono } from "hono";
import { freePort, ROOT, type SpawnedPortal, spawnPortal } from "../tests/e2e/_browser.ts";
import { readUntil } from "./_portal_process.ts";

const ADMIN = { email: "admin@bench.mx", password: "bench1234" };
const ACCOUNTS = {
  admin: ADMIN,
  customer: { email: "cliente@demo.mx", password: "demo1234" },
  user: { email: "inquilino@demo.mx", password: "demo1234" },
};
type Who = "anonymous" | keyof typeof ACCOUNTS;

/** First-load budgets (gzip KiB, fonts included): a page with a chart, and any other page. */
const BUDGET_KIB = { chart: 120, plain: 40 };

/** Islands that draw a chart: a page holding one gets the chart budget. */
const CHART_ISLANDS = /data-island="(TenantChart|EnergyChart|UptimeCharts|SensorLive)"/;

const PAGES: { path: string; who: Who }[] = [
  { path: "/login", who: "anonymous" },
  { path: "/register", who: "anonymous" },
  { path: "/admin", who: "admin" },
  { path: "/admin?tab=chart", who: "admin" },
  { path: "/admin/stats", who: "admin" },
  { path: "/admin/users", who: "admin" },
  { path: "/admin/devices", who: "admin" },
  { path: "/admin/settings", who: "admin" },
  { path: "/customer", who: "customer" },
  { path: "/user", who: "user" },
  { path: "/user/consumption", who: "user" },
  { path: "/user/consumption/2", who: "user" },
  { path: "/user/consumption/2?tab=analytics", who: "user" },
  { path: "/user/consumption/2?tab=insights", who: "user" },
  { path: "/user/pricing", who: "user" },
  { path: "/user/billing", who: "user" },
  { path: "/notifications", who: "admin" },
];

const out = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

/** Gzip size of `data`. */
async function gzipSize(data: Uint8Array): Promise<number> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

async function getBytes(url: string, cookie?: string): Promise<Uint8Array> {
  const res = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  if (res.status !== 200) {
    await res.body?.cancel();
    throw new Error(`GET ${url} answered ${res.status}`);
  }
  return new Uint8Array(await res.arrayBuffer());
}

/** Attribute values of the tags of `html` matching `tag` and `filter`. */
function attrs(html: string, tag: RegExp, attr: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(tag)) {
    const v = new RegExp(`\\s${attr}="([^"]+)"`).exec(m[0]);
    if (v) found.push(v[1]);
  }
  return found;
}

/** The first-load figures of one page. */
interface PageBytes {
  page: string;
  as: Who;
  html: { raw: number; gzip: number };
  css: { raw: number; gzip: number };
  js: { raw: number; gzip: number; files: number };
  fonts: { raw: number; files: number };
  /** HTML, CSS and JS gzip plus the fonts as served (woff2 is compressed already). */
  total_gzip: number;
  /** Whether the page draws a chart, its budget (KiB) and whether it stays within it. */
  chart: boolean;
  budget_kib: number;
  within_budget: boolean;
}

async function pageBytes(
  base: string,
  path: string,
  who: Who,
  cookie: string | undefined,
): Promise<PageBytes> {
  const htmlBytes = await getBytes(base + path, cookie);
  const html = new TextDecoder().decode(htmlBytes);
  const cssFiles = attrs(html, /<link\b[^>]*rel="stylesheet"[^>]*>/g, "href");
  const jsFiles = [
    ...attrs(html, /<script\b[^>]*type="module"[^>]*>/g, "src"),
    ...attrs(html, /<link\b[^>]*rel="modulepreload"[^>]*>/g, "href"),
  ];
  const sum = async (files: string[]) => {
    let raw = 0, gzip = 0;
    const texts: string[] = [];
    for (const f of new Set(files)) {
      const b = await getBytes(new URL(f, base + path).href);
      raw += b.byteLength;
      gzip += await gzipSize(b);
      texts.push(new TextDecoder().decode(b));
    }
    return { raw, gzip, texts };
  };
  const css = await sum(cssFiles);
  const js = await sum(jsFiles);
  const fontFiles = new Set<string>();
  for (const [i, text] of css.texts.entries()) {
    for (const m of text.matchAll(/url\(["']?([^"')]+\.woff2)["']?\)/g)) {
      fontFiles.add(new URL(m[1], new URL(cssFiles[i], base)).href);
    }
  }
  let fontRaw = 0;
  for (const f of fontFiles) fontRaw += (await getBytes(f)).byteLength;
  const htmlGzip = await gzipSize(htmlBytes);
  const total = htmlGzip + css.gzip + js.gzip + fontRaw;
  const chart = CHART_ISLANDS.test(html);
  const budget = chart ? BUDGET_KIB.chart : BUDGET_KIB.plain;
  return {
    page: path,
    as: who,
    html: { raw: htmlBytes.byteLength, gzip: htmlGzip },
    css: { raw: css.raw, gzip: css.gzip },
    js: { raw: js.raw, gzip: js.gzip, files: new Set(jsFiles).size },
    fonts: { raw: fontRaw, files: fontFiles.size },
    total_gzip: total,
    chart,
    budget_kib: budget,
    within_budget: total <= budget * 1024,
  };
}

async function signInCookie(base: string, who: keyof typeof ACCOUNTS): Promise<string> {
  const res = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ACCOUNTS[who]),
  });
  if (!res.ok) throw new Error(`sign-in of ${ACCOUNTS[who].email} failed: ${res.status}`);
  return `token=${(await res.json()).access_token}`;
}

/** Throughput of a closed loop of `concurrency` fetchers for `seconds`. */
interface Throughput {
  url: string;
  seconds: number;
  concurrency: number;
  requests: number;
  errors: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
}

async function load(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  concurrency: number,
  check: (res: Response) => boolean,
): Promise<Throughput> {
  const run = async (ms: number) => {
    const end = performance.now() + ms;
    const latencies: number[] = [];
    let errors = 0;
    const worker = async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const res = await fetch(url, { headers, redirect: "manual" });
          const ok = check(res);
          await res.arrayBuffer();
          if (ok) latencies.push(performance.now() - t0);
          else errors++;
        } catch {
          errors++;
        }
      }
    };
    const start = performance.now();
    await Promise.all(Array.from({ length: concurrency }, worker));
    return { latencies, errors, elapsed: (performance.now() - start) / 1000 };
  };
  await run(Math.min(1000, seconds * 200)); // warm up (JIT, connections)
  const { latencies, errors, elapsed } = await run(seconds * 1000);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies.length
      ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]
      : 0;
  return {
    url: new URL(url).pathname,
    seconds: Math.round(elapsed * 100) / 100,
    concurrency,
    requests: latencies.length,
    errors,
    rps: Math.round(latencies.length / elapsed),
    p50_ms: Math.round(pct(0.5) * 10) / 10,
    p99_ms: Math.round(pct(0.99) * 10) / 10,
  };
}

/** Child mode: the Hono hello-world on 127.0.0.1:PORT until killed. */
function serveHello(port: number) {
  const app = new Hono();
  app.get("/", (c) => c.text("Hello Hono!"));
  Deno.serve({
    port,
    hostname: "127.0.0.1",
    onListen: () => out(`hello ready on ${port}`),
  }, app.fetch);
}

/** A Hono hello-world (`bench.ts --hello PORT`) in a child process, for comparison. */
export async function startHello(): Promise<{ url: string; close(): Promise<void> }> {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("scripts/bench.ts", ROOT).pathname, "--hello", String(port)],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const { drained } = await readUntil(child, "hello ready");
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      child.kill("SIGTERM");
      await child.status;
      await drained;
    },
  };
}

const kb = (n: number) => (n / 1024).toFixed(1).padStart(6);

function printBytes(rows: PageBytes[]) {
  out(
    "First load per page (KiB; gzip as this script compresses it, raw in brackets; " +
      "total = HTML + CSS + JS gzip + fonts)",
  );
  out(
    "page                               as         HTML gz (raw)       CSS gz (raw)        JS gz (raw)  files  fonts woff2    total  budget",
  );
  for (const r of rows) {
    out(
      `${r.page.padEnd(34)} ${r.as.padEnd(9)} ${kb(r.html.gzip)} (${kb(r.html.raw)})  ${
        kb(r.css.gzip)
      } (${kb(r.css.raw)})  ${kb(r.js.gzip)} (${kb(r.js.raw)})  ${
        String(r.js.files).padStart(5)
      }  ${kb(r.fonts.raw)} in ${r.fonts.files}  ${kb(r.total_gzip)}  ${
        r.within_budget ? "ok" : "OVER"
      } ${r.budget_kib}${r.chart ? " (chart)" : ""}`,
    );
  }
}

function printThroughput(rows: Throughput[], names: string[]) {
  out();
  out("Requests per second (loopback, closed loop of concurrent fetches from this process)");
  out(
    "server                         path              conc   reqs  errors     rps   p50 ms  p99 ms",
  );
  rows.forEach((r, i) => {
    out(
      `${names[i].padEnd(30)} ${r.url.padEnd(16)} ${String(r.concurrency).padStart(5)} ${
        String(r.requests).padStart(6)
      } ${String(r.errors).padStart(7)} ${String(r.rps).padStart(7)} ${
        String(r.p50_ms).padStart(8)
      } ${String(r.p99_ms).padStart(7)}`,
    );
  });
}

async function main() {
  const num = (flag: string, fallback: number) => {
    const i = Deno.args.indexOf(flag);
    const n = i >= 0 ? Number(Deno.args[i + 1]) : fallback;
    if (!Number.isFinite(n) || n <= 0) throw new RangeError(`${flag} needs a positive number`);
    return n;
  };
  const seconds = num("--seconds", 5);
  const concurrency = num("--concurrency", 32);

  let portal: SpawnedPortal | null = null;
  let hello: Awaited<ReturnType<typeof startHello>> | null = null;
  try {
    portal = await spawnPortal({
      demo: true,
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: "error" },
    });
    const cookies: Partial<Record<Who, string>> = {};
    for (const who of ["admin", "customer", "user"] as const) {
      cookies[who] = await signInCookie(portal.url, who);
    }
    const bytes: PageBytes[] = [];
    for (const p of PAGES) bytes.push(await pageBytes(portal.url, p.path, p.who, cookies[p.who]));
    const encoding = (await fetch(`${portal.url}/login`, {
      headers: { "accept-encoding": "gzip, br" },
    }).then(async (r) => {
      await r.body?.cancel();
      return r.headers.get("content-encoding");
    })) ?? "none";
    printBytes(bytes);
    out(`(the portal itself answers with content-encoding: ${encoding})`);
    if (Deno.args.includes("--bytes-only")) return;

    const portalRun = await load(
      `${portal.url}/admin/users`,
      { cookie: cookies.admin! },
      seconds,
      concurrency,
      (r) => r.status === 200,
    );
    // For reference: a page without store reads beyond the session (anonymous sign-in page).
    const loginRun = await load(
      `${portal.url}/login`,
      {},
      seconds,
      concurrency,
      (r) => r.status === 200,
    );
    await portal.close();
    portal = null;
    hello = await startHello();
    const helloRun = await load(hello.url, {}, seconds, concurrency, (r) => r.status === 200);
    printThroughput([portalRun, loginRun, helloRun], [
      "portal GET /admin/users",
      "portal GET /login (reference)",
      "Hono hello-world",
    ]);
    out(
      `portal / hello-world: ${(portalRun.rps / Math.max(1, helloRun.rps) * 100).toFixed(1)} %`,
    );

    const result = {
      date: new Date().toISOString(),
      deno: Deno.version.deno,
      cpus: navigator.hardwareConcurrency,
      pages: bytes,
      throughput: {
        portal_admin_users: portalRun,
        portal_login: loginRun,
        hono_hello_world: helloRun,
      },
    };
    const file = new URL(".build/bench.json", ROOT);
    await Deno.mkdir(new URL(".build/", ROOT), { recursive: true });
    await Deno.writeTextFile(file, JSON.stringify(result, null, 2) + "\n");
    out(`(written to .build/bench.json)`);
    out(JSON.stringify(result));
  } finally {
    await portal?.close();
    await hello?.close();
  }
}

if (import.meta.main) {
  const i = Deno.args.indexOf("--hello");
  if (i >= 0) serveHello(Number(Deno.args[i + 1]));
  else await main();
}
