/**
 * `deno task bench` (phone load): how long a phone waits for the admin dashboard's energy
 * chart and for the tenant dashboard's chart, and how much JavaScript the dashboard and a sensor
 * data page load first.
 *
 * 1. Chart time: the real portal (`main.ts --demo` on a temporary data folder, loopback
 *    only) is opened in headless Chromium (puppeteer-core) as a phone: 360x740 CSS pixels,
 *    device scale factor 2, touch, an Android Chrome user agent; the admin signs in through
 *    the sign-in form. Then, {@link RUNS} times: the browser cache is cleared, the CPU is
 *    slowed 4x (`Emulation.setCPUThrottlingRate`, rate 4) and the network throttled to
 *    Chrome DevTools' "Slow 4G" preset (the numbers DevTools and puppeteer's
 *    `PredefinedNetworkConditions["Slow 4G"]` use: 150 ms RTT x 3.75 = 562.5 ms latency,
 *    1.6 Mbit/s x 0.9 = 180 000 bytes/s down, 750 kbit/s x 0.9 = 84 375 bytes/s up), and
 *    `/admin?tab=chart` is opened. Measured from navigation start: first contentful paint,
 *    and the moment the chart island drew a non-empty series (it sets `data-ready` on its
 *    chart box and the performance mark `energy-chart-drawn`). Median and max are printed,
 *    with the request waterfall of the median run. The chart is shown when the server's sketch of
 *    it (in the page's HTML) is painted, or uPlot's chart drawn, whichever is first; each run
 *    is a cold visit (the `styles` cookie deleted with the cache, so the page carries its
 *    stylesheets inline, routes/_styles.ts). Target: chart shown under 1.2 s. The same is
 *    measured for the demo tenant's dashboard (`/user`), signed in through the form in a
 *    context of its own; its chart has no mark of its own, so a script the browser runs before
 *    the page's (DevTools protocol, outside the page's CSP) notes the moment a chart box first
 *    says `data-ready`.
 * 2. First-load JS: the module scripts and modulepreloads of `/admin` and of the demo's
 *    sensor data page (`/admin/devices/station/{id}/sensor/{sensorId}/data`), fetched and
 *    gzip-compressed here (level of `CompressionStream`), in KiB, with their file count.
 *
 * Prints tables and, as its last line, the figures as JSON (also written to
 * `.build/bench_chart.json`). Option: `--runs N` (default 5).
 */
import type { Page } from "puppeteer-core";
import {
  freshPage,
  launchBrowser,
  type LaunchedBrowser,
  ROOT,
  type SpawnedPortal,
  spawnPortal,
  submitLogin,
} from "../tests/e2e/_browser.ts";
import { DEMO_PASSWORD } from "../services/demo.ts";

const ADMIN = { email: "admin@bench.mx", password: "bench1234" };
/** The demo's tenant (services/demo.ts). */
const TENANT = { email: "inquilino@demo.mx", password: DEMO_PASSWORD };
const RUNS = 5;
/** The phone: viewport, pixel ratio and user agent. */
const PHONE = { width: 360, height: 740, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
const PHONE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36";
/** Chrome DevTools' "Slow 4G" preset (see the module comment). */
const SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: (1.6 * 1000 * 1000 / 8) * 0.9,
  uploadThroughput: (750 * 1000 / 8) * 0.9,
};
const CPU_SLOWDOWN = 4;
/** The chart shown (the server's sketch painted, or uPlot's chart drawn), median (issue 32). */
const TARGET_MS = 1_200;
const CHART_PATH = "/admin?tab=chart";
const TENANT_PATH = "/user";
const READY = '.chart-box[data-ready="true"]';
/** The server's sketch of a chart, in the page's HTML (islands/ChartPreview.tsx). */
const SKETCH = "[data-chart-preview]";
/**
 * Runs before every document: notes when a chart box first says it is drawn, and the frame in
 * which the server's sketch first is in the document (a requestAnimationFrame callback runs
 * just before that frame is painted; the paint is no earlier than first contentful paint).
 */
const NOTE_CHART_DRAWN = `new MutationObserver((_, o) => {
  if (document.querySelector('${READY}')) { performance.mark("chart-ready-seen"); o.disconnect(); }
}).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-ready"] });
new MutationObserver((_, o) => {
  if (document.querySelector('${SKETCH}')) {
    o.disconnect();
    requestAnimationFrame(() => performance.mark("chart-sketch-frame"));
  }
}).observe(document, { subtree: true, childList: true });`;

const out = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

/** One request of the waterfall (times in ms from navigation start). */
interface Request {
  name: string;
  type: string;
  start: number;
  end: number;
  bytes: number;
}

/** One measured load. */
interface Run {
  fcp_ms: number | null;
  /** uPlot's chart drawn. */
  chart_ms: number;
  /** A chart on the screen: the server's sketch painted, or uPlot's drawn, whichever first. */
  shown_ms: number;
  dom_content_loaded_ms: number;
  load_ms: number;
  requests: Request[];
}

async function measureOnce(page: Page, base: string, path: string): Promise<Run> {
  const cdp = await page.createCDPSession();
  try {
    await cdp.send("Network.enable");
    await cdp.send("Network.clearBrowserCache");
    // A cold visit: neither the files nor the cookie saying they were sent (routes/_styles.ts).
    await cdp.send("Network.deleteCookies", { name: "styles", url: base });
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
    await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    await page.goto(base + path, { waitUntil: "load", timeout: 60_000 });
    await page.waitForSelector(READY, { timeout: 60_000 });
    return await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const fcp = performance.getEntriesByName("first-contentful-paint")[0];
      const drawn = performance.getEntriesByName("energy-chart-drawn")[0] ??
        performance.getEntriesByName("chart-ready-seen")[0];
      const sketch = performance.getEntriesByName("chart-sketch-frame")[0];
      const sketchPainted = sketch ? Math.max(sketch.startTime, fcp?.startTime ?? 0) : Infinity;
      const requests = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
        .map((r) => ({
          name: new URL(r.name).pathname + new URL(r.name).search,
          type: r.initiatorType,
          start: Math.round(r.startTime),
          end: Math.round(r.responseEnd),
          bytes: r.transferSize,
        }));
      requests.unshift({
        name: location.pathname + location.search,
        type: "document",
        start: 0,
        end: Math.round(nav.responseEnd),
        bytes: nav.transferSize,
      });
      return {
        fcp_ms: fcp ? Math.round(fcp.startTime) : null,
        chart_ms: Math.round(drawn.startTime),
        shown_ms: Math.round(Math.min(sketchPainted, drawn.startTime)),
        dom_content_loaded_ms: Math.round(nav.domContentLoadedEventEnd),
        load_ms: Math.round(nav.loadEventEnd),
        requests,
      };
    });
  } finally {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 }).catch(() => {});
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    }).catch(() => {});
    await cdp.detach().catch(() => {});
  }
}

/** Gzip size of `data`. */
async function gzipSize(data: Uint8Array): Promise<number> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** The first-load JS of a page. */
interface PageJs {
  page: string;
  files: number;
  raw_kib: number;
  gzip_kib: number;
}

async function firstLoadJs(base: string, path: string, cookie: string): Promise<PageJs> {
  const res = await fetch(base + path, { headers: { cookie }, redirect: "manual" });
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  const html = await res.text();
  const files = new Set<string>();
  for (const m of html.matchAll(/<script\b[^>]*type="module"[^>]*\ssrc="([^"]+)"/g)) {
    files.add(m[1]);
  }
  for (const m of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*\shref="([^"]+)"/g)) {
    files.add(m[1]);
  }
  let raw = 0, gzip = 0;
  for (const f of files) {
    const b = new Uint8Array(await (await fetch(new URL(f, base + path))).arrayBuffer());
    raw += b.byteLength;
    gzip += await gzipSize(b);
  }
  const kib = (n: number) => Math.round(n / 102.4) / 10;
  return { page: path, files: files.size, raw_kib: kib(raw), gzip_kib: kib(gzip) };
}

/** The path of the first sensor data page of the demo station. */
async function demoSensorPage(base: string, cookie: string): Promise<string> {
  const res = await fetch(`${base}/api/devices?type=sensor`, { headers: { cookie } });
  if (!res.ok) throw new Error(`GET /api/devices answered ${res.status}`);
  const { devices } = await res.json() as {
    devices: { id: number; type: string; parent_id: number | null }[];
  };
  const sensor = devices.find((d) => d.type === "sensor" && d.parent_id !== null);
  if (!sensor) throw new Error("the demo has no sensor");
  return `/admin/devices/station/${sensor.parent_id}/sensor/${sensor.id}/data`;
}

async function signInCookie(base: string): Promise<string> {
  const res = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status}`);
  return `token=${(await res.json()).access_token}`;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function printWaterfall(run: Run) {
  out(`Waterfall of the median run (ms from navigation start; bytes transferred)`);
  out("start    end   bytes  type            request");
  for (const r of [...run.requests].sort((a, b) => a.start - b.start)) {
    out(
      `${String(r.start).padStart(5)} ${String(r.end).padStart(6)} ${
        String(r.bytes).padStart(7)
      }  ${r.type.padEnd(15)} ${r.name.slice(0, 90)}`,
    );
  }
  out(
    `first contentful paint ${run.fcp_ms} ms, DOMContentLoaded ${run.dom_content_loaded_ms} ms, ` +
      `load ${run.load_ms} ms, chart shown ${run.shown_ms} ms, uPlot's chart drawn ${run.chart_ms} ms`,
  );
}

/** The run whose chart time is the median. */
function medianOf(runs: Run[]): Run {
  const byChart = [...runs].sort((a, b) => a.shown_ms - b.shown_ms);
  return byChart[Math.floor((byChart.length - 1) / 2)];
}

/** Signs `account` in on a phone page of its own and measures `path` `runs` times. */
async function phoneRuns(
  launched: LaunchedBrowser,
  base: string,
  account: { email: string; password: string },
  path: string,
  runs: number,
): Promise<Run[]> {
  const page = await freshPage(launched.browser);
  await page.setViewport(PHONE);
  await page.setUserAgent(PHONE_UA);
  await page.evaluateOnNewDocument(NOTE_CHART_DRAWN);
  await page.goto(`${base}/login`, { waitUntil: "load" });
  await submitLogin(page, account.email, account.password);
  // One unthrottled load first, so the portal's own caches are warm like in use.
  await page.goto(base + path, { waitUntil: "load" });
  await page.waitForSelector(READY, { timeout: 30_000 });
  const measured: Run[] = [];
  for (let n = 0; n < runs; n++) measured.push(await measureOnce(page, base, path));
  await page.close();
  return measured;
}

async function main() {
  const i = Deno.args.indexOf("--runs");
  const runs = i >= 0 ? Number(Deno.args[i + 1]) : RUNS;
  if (!Number.isInteger(runs) || runs <= 0) throw new RangeError("--runs needs a positive integer");
  let portal: SpawnedPortal | null = null;
  let launched: LaunchedBrowser | null = null;
  try {
    portal = await spawnPortal({
      demo: true,
      env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: "error" },
    });
    const cookie = await signInCookie(portal.url);
    const sensorPage = await demoSensorPage(portal.url, cookie);
    const js = [
      await firstLoadJs(portal.url, "/admin", cookie),
      await firstLoadJs(portal.url, CHART_PATH, cookie),
      await firstLoadJs(portal.url, sensorPage, cookie),
    ];

    launched = await launchBrowser();
    const admin = await phoneRuns(launched, portal.url, ADMIN, CHART_PATH, runs);
    const tenant = await phoneRuns(launched, portal.url, TENANT, TENANT_PATH, runs);
    const chart = admin.map((r) => r.chart_ms);
    const shown = admin.map((r) => r.shown_ms);
    const fcp = admin.map((r) => r.fcp_ms ?? NaN);
    const tenantChart = tenant.map((r) => r.chart_ms);
    const tenantShown = tenant.map((r) => r.shown_ms);
    const tenantFcp = tenant.map((r) => r.fcp_ms ?? NaN);
    const medianRun = medianOf(admin);

    out(`First-load JS (gzip as this script compresses it)`);
    out("page                                                   files   raw KiB   gzip KiB");
    for (const r of js) {
      out(
        `${r.page.padEnd(54)} ${String(r.files).padStart(5)} ${r.raw_kib.toFixed(1).padStart(9)} ${
          r.gzip_kib.toFixed(1).padStart(10)
        }`,
      );
    }
    out();
    out(
      `Phone load of ${CHART_PATH}: 360x740 @2x, CPU ${CPU_SLOWDOWN}x slower, Slow 4G ` +
        `(${SLOW_4G.latency} ms, ${SLOW_4G.downloadThroughput} B/s down, ` +
        `${SLOW_4G.uploadThroughput} B/s up), cold cache, ${runs} runs`,
    );
    const line = (what: string, v: number[]) =>
      out(`${what} (ms): ${v.join(", ")}  median ${median(v)}  max ${Math.max(...v)}`);
    line("chart shown (server's sketch painted or uPlot's drawn)", shown);
    line("uPlot's chart drawn", chart);
    out(
      `first contentful paint (ms): ${fcp.join(", ")}  median ${median(fcp)}  max ${
        Math.max(...fcp)
      }`,
    );
    out(
      `target: chart shown under ${TARGET_MS} ms: ${
        median(shown) < TARGET_MS ? "met" : "NOT met"
      } (median), ${Math.max(...shown) < TARGET_MS ? "met" : "NOT met"} (max)`,
    );
    out();
    printWaterfall(medianRun);
    out();
    out(`Phone load of the tenant dashboard ${TENANT_PATH} (same profile, ${runs} runs)`);
    line("chart shown (server's sketch painted or uPlot's drawn)", tenantShown);
    line("uPlot's chart drawn", tenantChart);
    out(
      `target: chart shown under ${TARGET_MS} ms: ${
        median(tenantShown) < TARGET_MS ? "met" : "NOT met"
      } (median)`,
    );
    out(
      `first contentful paint (ms): ${tenantFcp.join(", ")}  median ${median(tenantFcp)}  max ${
        Math.max(...tenantFcp)
      }`,
    );
    out();
    printWaterfall(medianOf(tenant));

    const result = {
      date: new Date().toISOString(),
      profile: {
        viewport: PHONE,
        cpu_slowdown: CPU_SLOWDOWN,
        network: { name: "Slow 4G", ...SLOW_4G },
        page: CHART_PATH,
      },
      first_load_js: js,
      shown_ms: { runs: shown, median: median(shown), max: Math.max(...shown) },
      chart_ms: { runs: chart, median: median(chart), max: Math.max(...chart) },
      fcp_ms: { runs: fcp, median: median(fcp), max: Math.max(...fcp) },
      tenant_shown_ms: {
        runs: tenantShown,
        median: median(tenantShown),
        max: Math.max(...tenantShown),
      },
      tenant_chart_ms: {
        page: TENANT_PATH,
        runs: tenantChart,
        median: median(tenantChart),
        max: Math.max(...tenantChart),
      },
      tenant_fcp_ms: { runs: tenantFcp, median: median(tenantFcp), max: Math.max(...tenantFcp) },
      target_ms: TARGET_MS,
      median_run: medianRun,
    };
    await Deno.mkdir(new URL(".build/", ROOT), { recursive: true });
    await Deno.writeTextFile(
      new URL(".build/bench_chart.json", ROOT),
      JSON.stringify(result, null, 2) + "\n",
    );
    out(`(written to .build/bench_chart.json)`);
    out(JSON.stringify({ ...result, median_run: undefined }));
  } finally {
    await launched?.close();
    await portal?.close();
  }
}

if (import.meta.main) await main();
