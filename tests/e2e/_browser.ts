/**
 * End-to-end helpers: the real portal served on a free loopback port, headless Chromium
 * through puppeteer-core, accounts, sign-in, and a collector of the browser's console.
 *
 * The portal runs in the test's own process (`createApp(deps)` behind `Deno.serve` on port
 * 0, an in-memory KV): no port race, no waiting on a child's output, and the test can seed
 * accounts straight into the store. `spawnPortal()` starts `main.ts` as a child process for
 * the scripts that want the whole composition root (demo data, real config).
 *
 * Chromium is `/usr/bin/chromium` unless `CHROMIUM_PATH` says otherwise; it talks to
 * puppeteer over a pipe (no debugging port) and gets a fresh profile each launch.
 */
import assert from "node:assert/strict";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { createApp } from "../../routes/mod.ts";
import type { AppDeps } from "../../routes/_deps.ts";
import { loadConfig } from "../../services/platform/config.ts";
import { loadI18n } from "../../services/platform/i18n.ts";
import { type Assets, BUILD_DIR, loadAssets } from "../../components/assets.ts";
import { memoryLogger } from "../../services/platform/log.ts";
import { DEFAULT_THROTTLE } from "../../db/throttle.ts";
import { openSqliteStore } from "../../db/telemetry/sqlite.ts";
import type { Sample } from "../../db/telemetry/mod.ts";
import { seedAccessCode, sensorBody, stationBody, testCa } from "../_helpers.ts";
import { createUser, type StoredUser } from "../../db/users.ts";
import { hashPassword } from "../../services/platform/passwords.ts";
import { issueToken } from "../../services/platform/tokens.ts";
import type { Language, Role } from "../../core/roles.ts";
import { ACCESS_CODE_ALPHABET, ACCESS_CODE_LENGTH } from "../../core/access_code.ts";
import { monthBounds } from "../../core/local_time.ts";
import { freeLoopbackPort } from "../_mosquitto.ts";
import { type OpenpaySandbox, startOpenpaySandbox } from "../../services/payments/mod.ts";

/** The Chromium binary: `CHROMIUM_PATH`, else Debian's package. */
export const CHROMIUM_PATH = Deno.env.get("CHROMIUM_PATH") || "/usr/bin/chromium";

/** Flags for a headless Chromium running as root on a closed network (DESIGN.md pitfall 8). */
export const CHROMIUM_ARGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The project's root folder (file URL). */
export const ROOT = new URL("../../", import.meta.url);

/** A running portal. */
export interface Portal {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  url: string;
  deps: AppDeps & { log: ReturnType<typeof memoryLogger> };
  /** Stops the server and closes the store. */
  close(): Promise<void>;
}

/** Options of {@link startPortal}. */
export interface PortalOptions {
  /** Another build output (e.g. a development build); defaults to `static/build/`. */
  assets?: Assets;
}

async function copyDir(from: URL, to: URL) {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyDir(new URL(`${e.name}/`, from), new URL(`${e.name}/`, to));
    else if (e.isFile) await Deno.copyFile(new URL(e.name, from), new URL(e.name, to));
  }
}

/**
 * A private copy of the build in `static/build/`, so that a rebuild meanwhile (which
 * renames the hashed files) cannot pull the files from under a running test.
 */
export async function snapshotBuild(): Promise<{ assets: Assets; remove(): Promise<void> }> {
  const dir = new URL(`file://${await Deno.makeTempDir({ prefix: "portal-e2e-build-" })}/`);
  const remove = () => Deno.remove(dir, { recursive: true }).catch(() => {});
  try {
    for (let attempt = 1;; attempt++) {
      await copyDir(BUILD_DIR, dir);
      const assets = await loadAssets(dir);
      const m = assets.manifest;
      const files = [m.css, ...Object.values(m.islands).flatMap((i) => [i.file, ...i.imports])];
      const missing = [];
      for (const f of files) {
        if (!(await Deno.stat(new URL(f, dir)).catch(() => null))) missing.push(f);
      }
      if (missing.length === 0) return { assets, remove };
      if (attempt === 5) throw new Error(`the build misses ${missing.join(", ")}`);
      await new Promise((r) => setTimeout(r, 300)); // a build is under way
      await Deno.remove(dir, { recursive: true });
    }
  } catch (e) {
    await remove();
    throw e;
  }
}

/** Serves the real app on 127.0.0.1 and a free port, on an in-memory KV. */
export async function startPortal(opts: PortalOptions = {}): Promise<Portal> {
  const snapshot = opts.assets ? null : await snapshotBuild();
  const kv = await Deno.openKv(":memory:");
  const telemetry = openSqliteStore(":memory:");
  try {
    const deps = {
      kv,
      config: loadConfig({ DATA_DIR: "/nonexistent", HOSTNAME: "127.0.0.1" }),
      i18n: await loadI18n(),
      assets: opts.assets ?? snapshot!.assets,
      secret: "e2e-secret-e2e-secret-e2e-secret-0123456",
      now: Date.now,
      log: memoryLogger(),
      throttle: DEFAULT_THROTTLE,
      telemetry,
      pki: await testCa(),
    };
    const app = createApp(deps);
    const ready = Promise.withResolvers<number>();
    const server = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen: ({ port }) => ready.resolve(port) },
      (req, info) => app.fetch(req, { remoteAddr: info.remoteAddr }),
    );
    const port = await ready.promise;
    return {
      url: `http://127.0.0.1:${port}`,
      deps,
      async close() {
        await server.shutdown();
        kv.close();
        await telemetry.close();
        await snapshot?.remove();
      },
    };
  } catch (e) {
    kv.close();
    await telemetry.close();
    await snapshot?.remove();
    throw e;
  }
}

let seq = 0;

/** Options of {@link addAccount}. */
export interface AccountOptions {
  email?: string;
  password?: string;
  full_name?: string;
  language?: Language;
}

/** Creates an active account straight in the store; returns it with its password. */
export async function addAccount(
  portal: Portal,
  role: Role,
  o: AccountOptions = {},
): Promise<{ user: StoredUser; email: string; password: string }> {
  const password = o.password ?? "secret123";
  const email = o.email ?? `${role}${++seq}-${crypto.randomUUID().slice(0, 6)}@e2e.mx`;
  const user = await createUser(portal.deps.kv, {
    email,
    full_name: o.full_name ?? `Prueba ${role === "user" ? "Inquilino" : role}`,
    role,
    is_active: true,
    language: o.language ?? "es",
    password_hash: await hashPassword(password),
  }, Date.now());
  return { user, email, password };
}

/** The JSON API of a running portal as one signed-in account (bearer token). */
export interface PortalApi {
  token: string;
  /** POSTs `json` to `path`; asserts 201 and answers the new record's id. */
  create(path: string, json: unknown): Promise<number>;
}

/** The portal's API as `user` (a token issued with the portal's secret). */
export async function portalApi(portal: Portal, user: StoredUser): Promise<PortalApi> {
  const token = await issueToken(portal.deps.secret, user, Date.now(), 3_600);
  return {
    token,
    async create(path, json) {
      const res = await fetch(`${portal.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(json),
      });
      const text = await res.text();
      assert.equal(res.status, 201, `POST ${path}: ${text}`);
      return JSON.parse(text).id as number;
    },
  };
}

/** What {@link apiStation} makes: a station with units `unit_1`..., and a sensor for some. */
export interface ApiStationOptions {
  serial: string;
  name?: string;
  zoneId?: number | null;
  /** Unit names, in order (`unit_1` first). */
  units: string[];
  /** Sensors: serial, the unit they meter (`unit_N`) and their tenant. */
  sensors: { serial: string; unit: string; tenant?: number | null }[];
}

/** Creates a station in Monterrey with one SSR, its units and sensors, through the API. */
export async function apiStation(
  api: PortalApi,
  o: ApiStationOptions,
): Promise<{ station: number; sensors: number[] }> {
  const station = await api.create(
    "/api/devices",
    stationBody({
      name: o.name ?? `Estación ${o.serial}`,
      serial: o.serial,
      zoneId: o.zoneId,
      mqtt: { username: `station-${o.serial.toLowerCase()}`, password: "station-pass" },
      units: o.units.map((name, i) => ({ id: `unit_${i + 1}`, name })),
    }),
  );
  const sensors = [];
  for (const [i, s] of o.sensors.entries()) {
    sensors.push(
      await api.create(
        `/api/devices/${station}/sensors`,
        sensorBody({
          serial: s.serial,
          unit: s.unit,
          tenant: s.tenant,
          mqtt: { username: s.serial.toLowerCase(), password: "pw-sensor-0123456789" },
          ip: `10.0.0.${i + 5}`,
        }),
      ),
    );
  }
  return { station, sensors };
}

/**
 * An English-speaking admin signed in on a fresh page, and a station `stationSerial` with unit
 * "Depto 101" that meter `meterSerial` measures, made through the API as them; `sensorPage` is
 * the URL of the meter's page.
 */
export async function adminWithMeter(
  browser: Browser,
  portal: Portal,
  stationSerial: string,
  meterSerial: string,
): Promise<{
  admin: { user: StoredUser; email: string; password: string };
  page: Page;
  station: number;
  sensor: number;
  sensorPage: string;
}> {
  const admin = await addAccount(portal, "admin", { language: "en" });
  const { station, sensors: [sensor] } = await apiStation(await portalApi(portal, admin.user), {
    serial: stationSerial,
    units: ["Depto 101"],
    sensors: [{ serial: meterSerial, unit: "unit_1" }],
  });
  const page = await signedInPage(browser, portal, admin);
  const sensorPage = `${portal.url}/admin/devices/station/${station}/sensor/${sensor}/data`;
  return { admin, page, station, sensor, sensorPage };
}

/** A fresh, valid access code (8 symbols of the code alphabet). */
export function randomAccessCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(ACCESS_CODE_LENGTH));
  return [...bytes].map((b) => ACCESS_CODE_ALPHABET[b % ACCESS_CODE_ALPHABET.length]).join("");
}

/** Stores a fresh customer access code with `notes` and no assignments (a row of the codes list). */
export async function addCustomerCode(portal: Portal, notes: string): Promise<void> {
  await seedAccessCode(portal.deps.kv, randomAccessCode(), "customer", { notes });
}

/** A launched browser with its throw-away profile. */
export interface LaunchedBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/** Launches headless Chromium with a fresh `--user-data-dir`. */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  const profile = await Deno.makeTempDir({ prefix: "portal-e2e-chromium-" });
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      pipe: true,
      userDataDir: profile,
      args: CHROMIUM_ARGS,
      // Deno's test sanitizers would see the signal listeners puppeteer installs.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      defaultViewport: { width: 1280, height: 800 },
      protocolTimeout: 30_000,
    });
  } catch (e) {
    await Deno.remove(profile, { recursive: true }).catch(() => {});
    throw e;
  }
  return {
    browser,
    async close() {
      await browser.close().catch(() => {});
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

/**
 * Runs `fn` with a portal and a browser, closing both however `fn` ends (browser first,
 * so that its keep-alive connections do not hold the server's shutdown).
 */
export async function withPortalAndBrowser(
  fn: (portal: Portal, browser: Browser) => Promise<void>,
  opts: PortalOptions = {},
): Promise<void> {
  const portal = await startPortal(opts);
  try {
    const launched = await launchBrowser();
    try {
      await fn(portal, launched.browser);
    } finally {
      await launched.close();
    }
  } finally {
    await portal.close();
  }
}

/**
 * Registers test `name`: `fn` on a fresh portal and browser (see {@link withPortalAndBrowser}),
 * closed after it.
 */
export function test(
  name: string,
  fn: (world: { portal: Portal; browser: Browser }) => Promise<void>,
): void {
  Deno.test(name, () => withPortalAndBrowser((portal, browser) => fn({ portal, browser })));
}

/** Opens a page in a fresh incognito context (its own cookies). */
export async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.setDefaultNavigationTimeout(15_000);
  return page;
}

/** Fills the sign-in form of the current page and submits it; resolves after the redirect. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.type("#email", email);
  await page.type("#password", password);
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("form[action='/login'] button[type=submit]"),
  ]);
}

/** Opens /login and signs in; resolves on the page the portal lands on. */
export async function signIn(
  page: Page,
  portal: Portal,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${portal.url}/login`, { waitUntil: "load" });
  await submitLogin(page, email, password);
}

/** A fresh page (see {@link freshPage}) signed in as `account` (see {@link signIn}). */
export async function signedInPage(
  browser: Browser,
  portal: Portal,
  account: { email: string; password: string },
): Promise<Page> {
  const page = await freshPage(browser);
  await signIn(page, portal, account.email, account.password);
  return page;
}

/** What axe-core reports for one rule. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; failureSummary?: string; html: string }[];
}

let axeSource: string | undefined;

/**
 * Injects axe-core once per page. Evaluated through the DevTools protocol, which the portal's
 * Content-Security-Policy does not govern (an inline script tag would be refused, as it should).
 */
async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => "axe" in globalThis)) return;
  axeSource ??= await Deno.readTextFile(new URL("node_modules/axe-core/axe.min.js", ROOT));
  await page.evaluate(axeSource);
}

/** Runs axe-core on the page (injected once) and answers its serious and critical violations. */
export async function axeSerious(page: Page): Promise<AxeViolation[]> {
  await injectAxe(page);
  const violations = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return JSON.parse(JSON.stringify(r.violations));
  }) as AxeViolation[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Serious and critical axe-core violations of the page, as `id: target` lines. */
export async function axeLines(page: Page): Promise<string[]> {
  return (await axeSerious(page)).map((v) => `${v.id}: ${JSON.stringify(v.nodes[0]?.target)}`);
}

/** Clicks the first element `selector` matches and waits for the page it navigates to. */
export async function clickAndWait(page: Page, selector: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click(selector)]);
}

/** Waits until the chart `chart` of the page has drawn (its box marked ready). */
export function chartDrawn(page: Page, chart: string) {
  return page.waitForSelector(`[data-chart="${chart}"] .chart-box[data-ready="true"]`);
}

/** The rendered text (`innerText`) of the first element `selector` matches. */
export function innerText(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (el) => (el as HTMLElement).innerText);
}

/** The trimmed `textContent` of the first element `selector` matches. */
export function textOf(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (el) => (el.textContent ?? "").trim());
}

/** Asserts that the page is not wider than its viewport (one pixel of rounding allowed). */
export async function assertFits(page: Page): Promise<void> {
  const over = await page.evaluate(() =>
    document.documentElement.scrollWidth - document.documentElement.clientWidth
  );
  assert.ok(over <= 1, `${pathOf(page)} is ${over}px wider than the screen`);
}

/** Asserts that the page fits its viewport and that axe-core finds no serious violation on it. */
export async function assertFitsAndAccessible(page: Page): Promise<void> {
  await assertFits(page);
  assert.deepEqual(await axeLines(page), [], `accessibility of ${pathOf(page)}`);
}

/** The path (and query) of the page's current URL. */
export function pathOf(page: Page): string {
  const u = new URL(page.url());
  return u.pathname + u.search;
}

/** One thing the browser reported. */
export interface ConsoleEntry {
  kind: string;
  text: string;
}

/** Records console messages, uncaught page errors and failed requests of a page. */
export function collectConsole(page: Page): ConsoleEntry[] {
  const entries: ConsoleEntry[] = [];
  page.on("console", (m) => entries.push({ kind: m.type(), text: m.text() }));
  page.on("pageerror", (e) => entries.push({ kind: "pageerror", text: String(e) }));
  page.on("requestfailed", (r) => {
    entries.push({ kind: "requestfailed", text: `${r.url()} ${r.failure()?.errorText ?? ""}` });
  });
  return entries;
}

/**
 * A phone page (360x740, touch) in a new browser context that downloads into `dir`, with the
 * log of its console (see {@link collectConsole}).
 */
export async function phonePage(
  browser: Browser,
  dir: string,
): Promise<{ page: Page; logged: ConsoleEntry[] }> {
  const context = await browser.createBrowserContext({
    downloadBehavior: { policy: "allow", downloadPath: dir },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const logged = collectConsole(page);
  await page.setViewport({ width: 360, height: 740, isMobile: true, hasTouch: true });
  return { page, logged };
}

/**
 * Signs `who` in on a phone page (see {@link phonePage}) that downloads into a temporary
 * folder, runs `fn` with the page and that folder, then asserts that the `area`'s pages logged
 * no error; the folder is removed afterwards.
 */
export async function onPhone(
  browser: Browser,
  portal: Portal,
  who: { email: string; password: string },
  area: string,
  fn: (page: Page, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: `${area}-download-` });
  try {
    const { page, logged } = await phonePage(browser, dir);
    await signIn(page, portal, who.email, who.password);
    await fn(page, dir);
    const errors = logged.filter((e) => e.kind === "error" || e.kind === "pageerror");
    assert.deepEqual(errors, [], `the ${area} pages log no errors`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Waits (10 s at most) for the download `dir/name` and answers its bytes; asserts a PDF. */
export async function downloadedPdf(dir: string, name: string): Promise<Uint8Array> {
  let size = 0;
  for (let i = 0; i < 100 && size === 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    size = await Deno.stat(`${dir}/${name}`).then((s) => s.size, () => 0);
  }
  assert.ok(size > 1000, `${name} was downloaded`);
  const bytes = await Deno.readFile(`${dir}/${name}`);
  assert.equal(new TextDecoder().decode(bytes.slice(0, 5)), "%PDF-");
  return bytes;
}

/** Waits until `predicate` holds, polling every 50 ms, or throws after `timeoutMs`. */
export async function until(
  what: string,
  predicate: () => Promise<boolean> | boolean,
  timeoutMs = 5_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (true) {
    if (await predicate()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A portal started as a child process (`deno run -A main.ts`). */
export interface SpawnedPortal {
  url: string;
  /** Everything the portal printed on stdout before it was ready (demo accounts, codes). */
  output: string[];
  /** What the portal has written on stderr so far (its log lines). */
  stderr: string[];
  /** The port its embedded broker listens on. */
  mqttPort: number;
  /** Resolves when the child exits, however that happens. */
  exited: Promise<Deno.CommandStatus>;
  /** SIGTERM, then the data folder removed unless it was the caller's. */
  close(): Promise<void>;
  /** SIGKILL, as a crash: nothing removed; answers how it ended. */
  kill(): Promise<Deno.CommandStatus>;
}

/** Options of {@link spawnPortal}. */
export interface SpawnOptions {
  /** Pass `--demo` (seed the demo customer, tenant and access codes). */
  demo?: boolean;
  /** Extra environment for the child. */
  env?: Record<string, string>;
  /** Give up when the portal is not ready within this time. */
  timeoutMs?: number;
  /** A data folder of the caller's (kept on close, for a restart); else a temporary one. */
  dataDir?: string;
  /** The port to listen on (a restart on the same address); else a free one. */
  port?: number;
}

/** A port that was free a moment ago on the loopback interface. */
export const freePort = freeLoopbackPort;

/**
 * Starts the real composition root on a free loopback port with a temporary data folder,
 * waiting for its "Portal ready" line. `close()` stops it with SIGTERM and removes the data
 * (unless the folder was the caller's). A port taken by another process between choosing it
 * and listening on it (tests run in parallel) is chosen again, unless the caller fixed it.
 */
export async function spawnPortal(o: SpawnOptions = {}): Promise<SpawnedPortal> {
  for (let attempt = 1;; attempt++) {
    try {
      return await spawnOnce(o);
    } catch (e) {
      const chosenByUs = o.port === undefined && !o.env?.MQTT_PORT && !o.env?.MQTT_TLS_PORT;
      if (!(e instanceof PortTaken) || !chosenByUs || attempt === 3) throw e;
    }
  }
}

/** The portal refused to start because one of its ports was in use (main.ts says so). */
class PortTaken extends Error {}

async function spawnOnce(o: SpawnOptions): Promise<SpawnedPortal> {
  const dataDir = o.dataDir ?? await Deno.makeTempDir({ prefix: "portal-data-" });
  const port = o.port ?? freePort();
  const mqttPort = Number(o.env?.MQTT_PORT ?? freePort());
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts", ...(o.demo ? ["--demo"] : [])],
    cwd: ROOT.pathname,
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      // Its own broker ports, so that it runs beside another portal (a demo, a parallel test).
      MQTT_PORT: String(mqttPort),
      MQTT_TLS_PORT: String(freePort()),
      ...o.env,
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output: string[] = [];
  const errors: string[] = [];
  const stderrDone = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      errors.push(chunk);
    }
  })();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let url: string | null = null;
  let buffer = "";
  const kill = (signal: Deno.Signal) => {
    try {
      child.kill(signal);
    } catch { /* already gone */ }
  };
  const timer = setTimeout(() => kill("SIGKILL"), o.timeoutMs ?? 60_000);
  try {
    while (url === null) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        output.push(line);
        const m = /Portal ready: sign in at (http:\/\/\S+)\/login/.exec(line);
        if (m) url = m[1].replace("localhost", "127.0.0.1");
      }
    }
  } finally {
    clearTimeout(timer);
  }
  // Keep draining stdout so that the child never blocks on a full pipe.
  const stdoutDone = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  const drained = () => Promise.all([stdoutDone, stderrDone]).catch(() => {});
  const stop = async () => {
    kill("SIGTERM");
    const killer = setTimeout(() => kill("SIGKILL"), 5_000);
    await child.status;
    clearTimeout(killer);
    await drained();
    if (!o.dataDir) await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  };
  if (url === null) {
    await stop();
    const said = `${output.join("\n")}\n${errors.join("")}`.trimEnd();
    const Failure = said.includes("Another program uses this port") ? PortTaken : Error;
    throw new Failure(`the portal did not start:\n${said}`);
  }
  return {
    url,
    mqttPort,
    output,
    stderr: errors,
    exited: child.status,
    close: stop,
    async kill() {
      kill("SIGKILL");
      const status = await child.status;
      await drained();
      return status;
    },
  };
}

/** Last month in the business time zone (`offset` minutes east of UTC): its text, year and instants. */
export function lastMonth(offset: number) {
  const local = new Date(Date.now() + offset * 60_000);
  const y = local.getUTCMonth() === 0 ? local.getUTCFullYear() - 1 : local.getUTCFullYear();
  const m = local.getUTCMonth() === 0 ? 12 : local.getUTCMonth();
  return { text: `${y}-${String(m).padStart(2, "0")}`, year: y, ...monthBounds(y, m, offset) };
}

/**
 * Writes each meter's energy counter, `[first, last]` kWh of `counters`, one hour into and one
 * hour before the end of last month, then the `extra` readings, and flushes; answers last month.
 */
export async function meterLastMonth(
  portal: Portal,
  counters: Record<string, [number, number]>,
  extra: Sample[] = [],
) {
  const month = lastMonth(portal.deps.config.utcOffsetMinutes);
  const H = 3_600_000;
  portal.deps.telemetry.write([
    ...Object.entries(counters).flatMap(([serial, [first, last]]) => [
      { serial, ts: month.from + H, values: { total_energy_kwh: first } },
      { serial, ts: month.to - H, values: { total_energy_kwh: last } },
    ]),
    ...extra,
  ]);
  await portal.deps.telemetry.flush();
  return month;
}

/**
 * A reading of `serial` each hour of the last 24, a minute before the hour: the counter goes
 * on from `kwh` by 0.5 kWh an hour, with the other `values(i)` (`i` hours ago, 23 down to 0).
 */
export function lastDay(
  serial: string,
  kwh: number,
  values: (i: number) => Record<string, number>,
): Sample[] {
  const H = 3_600_000;
  const now = Date.now();
  const out: Sample[] = [];
  for (let i = 23; i >= 0; i--) {
    out.push({
      serial,
      ts: now - i * H - 60_000,
      values: { total_energy_kwh: kwh + (24 - i) * 0.5, ...values(i) },
    });
  }
  return out;
}

/**
 * Runs `fn` with a local Openpay sandbox that the portal uses (its webhook posting to the
 * portal, transfers retried every 100 ms), stopped afterwards.
 */
export async function withOpenpaySandbox(
  portal: Portal,
  merchantId: string,
  fn: (sandbox: OpenpaySandbox) => Promise<void>,
): Promise<void> {
  const hook = { user: "openpay", password: "e2e-webhook-password" };
  const sandbox = await startOpenpaySandbox({
    merchantId,
    privateKey: "sk_e2e",
    webhook: { url: `${portal.url}/api/webhooks/openpay`, ...hook },
    retryMs: 100,
  });
  try {
    portal.deps.config.openpay = {
      merchantId,
      privateKey: "sk_e2e",
      production: false,
      apiUrl: sandbox.url,
      webhookUser: hook.user,
      webhookPassword: hook.password,
    };
    await fn(sandbox);
  } finally {
    await sandbox.stop();
  }
}
