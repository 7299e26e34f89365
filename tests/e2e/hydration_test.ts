/**
 * Islands hydrate without mismatches (DESIGN.md pitfall 2): on a development build of
 * React, which reports every hydration mismatch on the console, /register (plain scripts),
 * a signed-in page and a page with a React island (the zone level editor) load silently and
 * their islands work afterwards. A control run tampers with the server HTML to show that the
 * check does see a mismatch.
 *
 * The build runs as a subprocess (`scripts/build.ts --dev --out`): esbuild inside
 * `Deno.test` trips the leak checks (pitfall 4).
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { loadAssets } from "../../components/assets.ts";
import {
  addAccount,
  collectConsole,
  type ConsoleEntry,
  freshPage,
  type Portal,
  ROOT,
  signIn,
  withPortalAndBrowser,
} from "./_browser.ts";

/** What React's development build says when hydration goes wrong. */
const HYDRATION_TROUBLE =
  /hydrat|did not match|didn't match|server rendered (html|text)|text content does not match/i;

/** Builds the islands with React's development build into a fresh folder under `.build/`. */
async function devBuild(): Promise<URL> {
  const dir = new URL(`.build/dev-${crypto.randomUUID().slice(0, 8)}/`, ROOT);
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/build.ts", "--dev", "--out", dir.pathname],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    throw new Error(`the development build failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  return dir;
}

/** Runs `fn` with a portal serving a fresh development build, then removes the build. */
async function withDevBuild(fn: (portal: Portal, page: () => Promise<Page>) => Promise<void>) {
  const dir = await devBuild();
  try {
    const assets = await loadAssets(dir);
    // The build really is React's development version (it carries the mismatch messages).
    const chunks = await Promise.all(
      [...new Set(Object.values(assets.manifest.islands).flatMap((i) => i.imports))]
        .map((f) => Deno.readTextFile(new URL(f, dir))),
    );
    assert.ok(
      chunks.some((c) => c.includes("A tree hydrated but")),
      "the development build contains React's hydration diagnostics",
    );
    await withPortalAndBrowser(
      (portal, browser) => fn(portal, () => freshPage(browser)),
      { assets },
    );
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

const troubles = (entries: ConsoleEntry[]) =>
  entries.filter((e) =>
    e.kind === "pageerror" || e.kind === "requestfailed" ||
    ((e.kind === "error" || e.kind === "warn" || e.kind === "warning") &&
      !/Download the React DevTools/.test(e.text)) ||
    HYDRATION_TROUBLE.test(e.text)
  );

const show = (entries: ConsoleEntry[]) =>
  entries.map((e) => `  [${e.kind}] ${e.text.slice(0, 400)}`).join("\n");

/** Gives React's scheduler a moment to report anything late. */
const settle = (page: Page) => page.evaluate(() => new Promise((r) => setTimeout(r, 150)));

Deno.test("islands hydrate without mismatch warnings on a development build and work afterwards", async () => {
  await withDevBuild(async (portal, newPage) => {
    // /register: the terms consent (a plain script, no React) still works.
    const page = await newPage();
    const seen = collectConsole(page);
    await page.goto(`${portal.url}/register`, { waitUntil: "load" });
    await page.waitForSelector("[data-island=TermsConsent][data-ready] [role=tablist]");
    await page.click("#terms");
    await page.waitForSelector("#terms-dialog.open", { visible: true });
    await page.click("#terms-dialog [role=tab]:nth-child(2)");
    await page.waitForSelector("#privacy-doc:not([hidden])", { visible: true });
    await page.click("[data-testid=terms-accept]");
    await page.waitForSelector("#terms-dialog.open", { hidden: true });
    assert.equal(await page.$eval("#terms", (el) => (el as HTMLInputElement).checked), true);
    assert.deepEqual(troubles(seen), [], `/register reported:\n${show(troubles(seen))}`);

    // A signed-in page: the notification bell.
    const acc = await addAccount(portal, "admin");
    const home = await newPage();
    const seenHome = collectConsole(home);
    await signIn(home, portal, acc.email, acc.password);
    assert.equal(new URL(home.url()).pathname, "/admin");
    await home.waitForSelector("[data-island=NotificationBell][data-ready]");
    await settle(home);
    await home.click("[data-testid=notification-bell]");
    // Clicking the bell opens the panel instead of following its /notifications link.
    await home.waitForSelector(".notif-panel", { visible: true });
    assert.equal(new URL(home.url()).pathname, "/admin");
    await home.waitForSelector(".notif-panel .notif-list li.empty, .notif-panel .notif-item");
    assert.deepEqual(troubles(seenHome), [], `/admin reported:\n${show(troubles(seenHome))}`);

    // /admin/stats: the uptime charts (a plain script) fetch their rows and draw both lines.
    await home.goto(`${portal.url}/admin/stats`, { waitUntil: "load" });
    await home.waitForSelector("[data-island=UptimeCharts][data-ready] .uptime-charts");
    assert.equal(await home.$$eval(".uptime-charts .uptime-chart", (s) => s.length), 2);
    await settle(home);
    assert.deepEqual(troubles(seenHome), [], `/admin/stats reported:\n${show(troubles(seenHome))}`);

    // A page with a React island: the zone level editor. Hydrated, it drops the no-script
    // "apply mode" button, shows the levels of the tiered mode when picked, and adding a level
    // adds a row.
    await home.goto(`${portal.url}/admin/zones/new`, { waitUntil: "load" });
    await home.waitForSelector("[data-island=ZoneLevels] button[value=mode]", { hidden: true });
    await settle(home);
    await home.click("[data-island=ZoneLevels] input[name=pricing_mode][value=tiered]");
    await home.waitForSelector("[data-testid=add-level]", { visible: true });
    const rows = () => home.$$eval("[data-testid=levels-table] tbody tr", (r) => r.length);
    const before = await rows();
    await home.click("[data-testid=add-level]");
    assert.equal(await rows(), before + 1);
    assert.deepEqual(
      troubles(seenHome),
      [],
      `/admin/zones/new reported:\n${show(troubles(seenHome))}`,
    );
  });
});

Deno.test("the hydration check sees a mismatch when the server HTML differs (control)", async () => {
  await withDevBuild(async (portal, newPage) => {
    const acc = await addAccount(portal, "admin");
    const page = await newPage();
    await signIn(page, portal, acc.email, acc.password);
    const cookie = (await page.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const seen = collectConsole(page);
    await page.setRequestInterception(true);
    page.on("request", async (req) => {
      if (!req.url().endsWith("/admin/zones/new")) return req.continue();
      const res = await fetch(req.url(), { headers: { ...req.headers(), cookie } });
      // The zone level editor's first mode legend, changed after the server rendered it.
      const html = (await res.text()).replace(/(<legend>)/, "$1Tampered ");
      await req.respond({ status: res.status, contentType: "text/html", body: html });
    });
    await page.goto(`${portal.url}/admin/zones/new`, { waitUntil: "load" });
    await page.waitForSelector("[data-island=ZoneLevels]");
    await settle(page);
    assert.ok(
      seen.some((e) => HYDRATION_TROUBLE.test(e.text)),
      `a tampered page is reported; the console said:\n${show(seen)}`,
    );
  });
});
