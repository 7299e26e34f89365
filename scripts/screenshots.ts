/**
 * Screenshots of every page built so far, at phone (360x740) and desktop (1280x800) size,
 * in es, en and de, into `tests/screenshots/{lang}/` (git-ignored).
 *
 * Starts the real portal (`main.ts --demo`) on a temporary data folder and a free loopback
 * port, signs in as the admin, the demo customer and the demo tenant, and switches each
 * account's profile language through the API. It also lists any raw locale key (such as
 * `users.tabs.x`) that shows up in a page's text.
 *
 * Usage: deno run -A scripts/screenshots.ts [--only <substring of the path>]
 */
import type { Browser, Page } from "puppeteer-core";
import { launchBrowser, type SpawnedPortal, spawnPortal } from "../tests/e2e/_browser.ts";
import { LANGUAGES } from "../core/roles.ts";

type Who = "anonymous" | "admin" | "customer" | "user";

interface Shot {
  who: Who;
  path: string;
  name: string;
  /** Something to do on the page before the picture (open a dialog, the drawer). */
  before?: (page: Page) => Promise<void>;
  /** Only at this width. */
  width?: number;
}

const ADMIN = { email: "admin@demo.mx", password: "demo1234" };
const ACCOUNTS: Record<Exclude<Who, "anonymous">, { email: string; password: string }> = {
  admin: ADMIN,
  customer: { email: "cliente@demo.mx", password: "demo1234" },
  user: { email: "inquilino@demo.mx", password: "demo1234" },
};

const openTerms = async (page: Page) => {
  await page.waitForSelector("[data-island=TermsConsent] [role=tablist]");
  await page.click("#terms");
  await page.waitForSelector("#terms-dialog.open", { visible: true });
};
const openBell = async (page: Page) => {
  await page.waitForSelector("[data-island=NotificationBell][data-ready]");
  await page.click("[data-testid=notification-bell]");
  await page.waitForSelector(".notif-panel .notif-list li");
};
/** The page grows when the hourly charts arrive: wait for them before measuring it. */
const uptimeDrawn = async (page: Page) => {
  await page.waitForFunction(() => document.querySelectorAll(".uptime-charts canvas").length >= 2);
};
const chartDrawn = async (page: Page) => {
  await page.waitForSelector('.chart-box[data-ready="true"]');
};
const openHow = async (page: Page) => {
  await page.click("[data-testid=how-it-works] summary");
};
const openInvoice = async (page: Page) => {
  await page.click("[data-testid=invoice-open]");
};
const openDrawer = async (page: Page) => {
  await page.click(".menu-toggle");
  await new Promise((r) => setTimeout(r, 350));
};

/** The picker query of last month (finalized by the demo billing below). */
const LAST_MONTH = (() => {
  const local = new Date(Date.now() - 6 * 3_600_000);
  local.setUTCDate(0);
  return `zone_id=1&year=${local.getUTCFullYear()}&period=${local.toISOString().slice(0, 7)}`;
})();

/** A shot as a row of the table below. */
type ShotRow = [Who, Shot["path"], Shot["name"], Shot["before"]?, Shot["width"]?];

const SHOTS: Shot[] = ([
  ["anonymous", "/login", "login"],
  ["anonymous", "/login?next=%2Fadmin", "login-error", badLogin],
  ["anonymous", "/register", "register"],
  ["anonymous", "/register", "register-errors", emptyRegister],
  ["anonymous", "/register", "register-terms", openTerms],
  ["anonymous", "/legal", "legal"],
  ["admin", "/admin", "admin"],
  ["admin", "/admin", "admin-drawer", openDrawer, 360],
  ["admin", "/admin", "admin-bell", openBell],
  ["user", "/user/pricing", "user-bell", openBell],
  ["admin", "/admin#contact", "admin-contact"],
  ["admin", "/admin/users", "admin-users-tenants"],
  ["admin", "/admin/users?tab=customers", "admin-users-customers"],
  ["admin", "/admin/users?tab=admins", "admin-users-admins"],
  ["admin", "/admin/users?tab=access-codes", "admin-users-codes"],
  ["admin", "/admin/users?tab=customers&q=zzzz", "admin-users-empty"],
  ["admin", "/admin/users/accounts-form/customer", "admin-form-customer"],
  ["admin", "/admin/users/accounts-form/admin", "admin-form-admin"],
  ["admin", "/admin/access-codes/create", "admin-code-create"],
  ["admin", "/admin/settings", "admin-settings"],
  ["admin", "/admin/devices", "admin-devices"],
  ["admin", "/admin/devices/station/create", "admin-station-create"],
  ["admin", "/admin/devices/station/999/data", "admin-station-not-found"],
  ["admin", "/notifications", "admin-notifications"],
  ["admin", "/admin?tab=map", "admin-map"],
  ["admin", "/admin?tab=chart", "admin-chart", chartDrawn],
  ["admin", "/admin/stats", "admin-stats", uptimeDrawn],
  ["admin", "/admin/devices/station/1/data", "admin-station-data"],
  ["admin", "/admin/devices/station/1", "admin-station-edit"],
  ["admin", "/admin/devices/station/1/sensor/2/data", "admin-sensor-data"],
  ["admin", "/admin/devices/station/1/sensor/2", "admin-sensor-edit"],
  ["admin", "/admin/pricing", "admin-pricing"],
  ["admin", "/admin/zones/1", "admin-zone-detail"],
  ["admin", "/admin/zones/create", "admin-zone-create"],
  ["admin", "/admin/units-billing", "admin-units-billing"],
  ["admin", "/admin/stations-billing", "admin-stations-billing"],
  ["admin", `/admin/units-billing?${LAST_MONTH}`, "admin-units-billing-last"],
  ["admin", `/admin/stations-billing?${LAST_MONTH}`, "admin-stations-billing-last"],
  ["admin", "/admin/units-billing/bills/1/payment", "admin-payment-record"],
  ["admin", "/admin/bimester-billing", "admin-bimester-billing"],
  ["admin", "/admin/finances", "admin-finances", chartDrawn],
  ["admin", "/admin/finances?currency=USD", "admin-finances-empty"],
  ["admin", "/admin/report/station/1", "admin-station-report"],
  ["admin", "/admin/report/station/1/unit/unit_1", "admin-unit-report"],
  ["customer", "/customer", "customer", chartDrawn],
  ["customer", "/customer?chart=energy", "customer-7d", chartDrawn],
  ["customer", "/customer?chart=trend", "customer-6m", chartDrawn],
  ["customer", "/customer/installations/1", "customer-installation"],
  ["customer", "/customer/installations/1", "customer-installation-invoice", openInvoice],
  ["customer", "/customer/installations/1/unit/3", "customer-unit"],
  ["customer", "/customer/finances", "customer-finances"],
  ["customer", "/customer/billing", "customer-billing", chartDrawn],
  ["customer", "/customer/billing", "customer-billing-how", openHow],
  ["customer", "/customer/settings", "customer-settings"],
  ["customer", "/notifications", "customer-notifications"],
  ["user", "/user", "user", chartDrawn],
  ["user", "/user?chart=consumption", "user-7d", chartDrawn],
  ["user", "/user?chart=monthly", "user-6m", chartDrawn],
  ["user", "/user/consumption", "user-consumption"],
  ["user", "/user/consumption/2", "user-unit", chartDrawn],
  ["user", "/user/consumption/2?tab=analytics", "user-unit-analytics", chartDrawn],
  ["user", "/user/consumption/2?tab=insights", "user-unit-insights"],
  ["user", "/user/pricing", "user-pricing"],
  ["user", "/user/billing", "user-billing", chartDrawn],
  ["user", "/user/billing", "user-billing-how", openHow],
  ["user", "/user", "user-drawer", openDrawer, 360],
  ["user", "/user/payments", "user-payments"],
  ["user", "/user/payment", "user-payment-none"],
  ["admin", "/admin/payments", "admin-payments"],
  ["user", "/user/settings", "user-settings"],
  ["user", "/notifications", "user-notifications"],
] as ShotRow[]).map(([who, path, name, before, width]) => ({ who, path, name, before, width }));

async function badLogin(page: Page) {
  await page.type("#email", "nadie@demo.mx");
  await page.type("#password", "wrong-password");
  await Promise.all([page.waitForNavigation(), page.click("form button[type=submit]")]);
}

async function emptyRegister(page: Page) {
  await Promise.all([
    page.waitForNavigation(),
    page.$eval("form[action='/register']", (f) => (f as HTMLFormElement).submit()),
  ]);
}

const SIZES = [
  { width: 360, height: 740, tag: "phone", isMobile: true, hasTouch: true },
  { width: 1280, height: 800, tag: "desktop", isMobile: false, hasTouch: false },
];

/** Every leaf key of the English locale files (`namespace.path.to.text`). */
async function localeKeys(): Promise<string[]> {
  const keys: string[] = [];
  const walk = (prefix: string, v: unknown) => {
    if (typeof v === "string") keys.push(prefix);
    else if (v && typeof v === "object" && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v)) walk(`${prefix}.${k}`, x);
    }
  };
  const dir = new URL("../locales/en/", import.meta.url);
  for await (const e of Deno.readDir(dir)) {
    if (!e.name.endsWith(".json")) continue;
    walk(e.name.slice(0, -5), JSON.parse(await Deno.readTextFile(new URL(e.name, dir))));
  }
  return keys;
}

/** Signs in through the API and puts the token into a fresh browser context's cookie. */
async function sessionPage(
  browser: Browser,
  base: string,
  who: Who,
  lang: string,
): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const host = new URL(base).hostname;
  if (who === "anonymous") {
    await context.setCookie({ name: "auth_language", value: lang, domain: host, path: "/" });
    return page;
  }
  const acc = ACCOUNTS[who];
  const login = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(acc),
  });
  if (!login.ok) throw new Error(`sign-in of ${acc.email} failed: ${login.status}`);
  const token = (await login.json()).access_token as string;
  const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const profile = await (await fetch(`${base}/api/users/profile`, { headers: auth })).json();
  const put = await fetch(`${base}/api/users/profile`, {
    method: "PUT",
    headers: auth,
    body: JSON.stringify({
      email: profile.email,
      full_name: profile.full_name,
      phone: profile.phone ?? "",
      language: lang,
    }),
  });
  if (!put.ok) throw new Error(`language change of ${acc.email} failed: ${await put.text()}`);
  await context.setCookie({ name: "token", value: token, domain: host, path: "/", httpOnly: true });
  return page;
}

/**
 * Bills the demo zone's last month (finalized) and current month (drafts), so that the billing
 * lists, the report pages and the notices show the demo's bills.
 */
async function billDemoMonth(base: string): Promise<void> {
  const login = await fetch(`${base}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  const auth = {
    authorization: `Bearer ${(await login.json()).access_token}`,
    "content-type": "application/json",
  };
  const { zones } = await (await fetch(`${base}/api/zones`, { headers: auth })).json();
  const local = new Date(Date.now() - 6 * 3_600_000);
  const current = local.toISOString().slice(0, 7);
  local.setUTCDate(0);
  for (const period of [local.toISOString().slice(0, 7), current]) {
    const res = await fetch(`${base}/api/unified-billing/process`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ period, zone_id: zones[0].id }),
    });
    if (!res.ok) throw new Error(`billing the demo failed: ${res.status} ${await res.text()}`);
  }
}

/** True when the page's stylesheet loaded (a rebuild elsewhere renames the hashed files). */
function styled(page: Page): Promise<boolean> {
  return page.evaluate(() =>
    [...document.styleSheets].some((sheet) => {
      try {
        return sheet.cssRules.length > 0;
      } catch {
        return false;
      }
    })
  );
}

/**
 * The portal under test. It reads the build manifest once at start, so when something
 * rebuilds `static/build/` meanwhile (hashed names change) it is restarted.
 */
class PortalUnderTest {
  portal: SpawnedPortal | null = null;
  restarts = 0;
  async url(): Promise<string> {
    if (!this.portal) {
      this.portal = await spawnPortal({
        demo: true,
        env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
      });
      await billDemoMonth(this.portal.url);
    }
    return this.portal.url;
  }
  log(): string {
    return (this.portal?.stderr ?? []).join("").trim().split("\n").slice(-20).join("\n");
  }
  async restart() {
    this.restarts++;
    await this.close();
  }
  async close() {
    const p = this.portal;
    this.portal = null;
    await p?.close();
  }
}

async function main() {
  const onlyIdx = Deno.args.indexOf("--only");
  const only = onlyIdx >= 0 ? Deno.args[onlyIdx + 1] : null;
  const outDir = new URL("../tests/screenshots/", import.meta.url);
  await Deno.mkdir(outDir, { recursive: true });
  const keys = await localeKeys();
  const keyPattern = new RegExp(
    `(^|[^\\w.@/-])(${
      keys.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")
    })(?![\\w-])`,
  );
  const rawKeyLike = /(^|\s)[a-z_]+(\.[a-z0-9_]+){1,4}(?=\s|$)/;

  const portal = new PortalUnderTest();
  const findings: string[] = [];
  let count = 0;
  try {
    const launched = await launchBrowser();
    try {
      for (const lang of LANGUAGES) {
        await Deno.mkdir(new URL(`${lang}/`, outDir), { recursive: true });
        let pages = new Map<Who, Page>();
        for (const shot of SHOTS) {
          if (only && !shot.path.includes(only) && !shot.name.includes(only)) continue;
          for (const size of SIZES) {
            if (shot.width && shot.width !== size.width) continue;
            for (let attempt = 1;; attempt++) {
              const base = await portal.url();
              let page = pages.get(shot.who);
              if (!page) {
                page = await sessionPage(launched.browser, base, shot.who, lang);
                pages.set(shot.who, page);
              }
              await page.setViewport(size);
              await page.goto("about:blank");
              await page.goto(`${base}${shot.path}`, { waitUntil: "load" });
              if (await styled(page)) break;
              if (attempt === 3) throw new Error(`${shot.path} has no stylesheet`);
              // The build changed under the portal: start a fresh one, sign in again.
              for (const p of pages.values()) await p.browserContext().close();
              pages = new Map();
              await portal.restart();
            }
            const page = pages.get(shot.who)!;
            await shot.before?.(page);
            await page.evaluate(() => document.fonts.ready.then(() => true));
            const file = new URL(`${lang}/${shot.name}-${size.tag}.png`, outDir);
            await page.screenshot({ path: file.pathname as `${string}.png`, fullPage: true });
            count++;
            const text: string = await page.evaluate(() => document.body.innerText);
            const m = keyPattern.exec(text) ?? rawKeyLike.exec(text);
            if (m) findings.push(`${lang} ${shot.name}: raw key "${m[0].trim()}"`);
            const overflow = await page.evaluate(() =>
              document.documentElement.scrollWidth - document.documentElement.clientWidth
            );
            if (overflow > 1) {
              findings.push(
                `${lang} ${shot.name} ${size.tag}: page is ${overflow}px wider than the screen`,
              );
            }
          }
        }
        for (const p of pages.values()) await p.browserContext().close();
      }
    } finally {
      await launched.close();
    }
  } catch (e) {
    throw new Error(`${e instanceof Error ? e.message : e}\nportal log:\n${portal.log()}`);
  } finally {
    await portal.close();
  }
  const out = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));
  out(`${count} screenshots in ${outDir.pathname}`);
  if (portal.restarts) out(`(the portal was restarted ${portal.restarts}x after rebuilds)`);
  if (findings.length) {
    out(`Things to look at (${new Set(findings).size}):`);
    for (const f of new Set(findings)) out(`  ${f}`);
  } else out("No raw locale keys and no horizontal overflow found.");
}

if (import.meta.main) await main();
