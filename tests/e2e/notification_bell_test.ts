/**
 * The notification bell is plain HTML and a small script: a signed-in page whose islands
 * are all plain scripts loads no React, and in Chromium the bell shows the unread count,
 * opens its panel, resolves a notice (the count follows) and closes with Escape. Without
 * JavaScript it is a link to the notifications page.
 */
import assert from "node:assert/strict";
import type { Page } from "puppeteer-core";
import { createNotification, getNotification } from "../../db/notifications.ts";
import type { NotificationType } from "../../core/types.ts";
import { addAccount, freshPage, type Portal, signIn, test } from "./_browser.ts";

/** A string only React's production build carries (its error decoder's address). */
const REACT_MARK = "react.dev/errors";

/** The scripts a loaded page fetched, with their text. */
async function loadedScripts(page: Page): Promise<{ url: string; text: string }[]> {
  const urls = await page.evaluate(() =>
    performance.getEntriesByType("resource").map((e) => e.name).filter((u) =>
      new URL(u).pathname.endsWith(".js")
    )
  );
  return await Promise.all(
    urls.map(async (url) => ({ url, text: await (await fetch(url)).text() })),
  );
}

const notify = (portal: Portal, userId: number, n: number, type: NotificationType) =>
  createNotification(portal.deps.kv, {
    user_id: userId,
    type,
    priority: "low",
    title: `Aviso ${n}`,
    message: `Mensaje ${n}`,
    link: "/user/billing",
  }, Date.now() - n * 60_000);

const badge = (page: Page) =>
  page.$eval(
    "[data-testid=notification-bell]",
    (el) => el.querySelector("[data-testid=notification-count]")?.textContent ?? "",
  );

test("a signed-in page without React islands loads no React; the bell counts, lists and resolves in Chromium", async ({ portal, browser }) => {
  const tenant = await addAccount(portal, "user");
  await notify(portal, tenant.user.id, 2, "payment_received");
  const first = await notify(portal, tenant.user.id, 1, "bill_created");

  const page = await freshPage(browser);
  await signIn(page, portal, tenant.email, tenant.password);
  await page.goto(`${portal.url}/notifications`, { waitUntil: "load" });
  await page.waitForSelector("[data-island=NotificationBell][data-ready]");

  const scripts = await loadedScripts(page);
  assert.ok(scripts.some((s) => s.url.includes("/NotificationBell-")), "the bell's script ran");
  const withReact = scripts.filter((s) => s.text.includes(REACT_MARK)).map((s) => s.url);
  assert.deepEqual(withReact, [], "no React script on a page without React islands");

  // The count the server rendered, then the panel with the list.
  assert.equal(await badge(page), "2");
  const bell = "[data-testid=notification-bell]";
  assert.equal(await page.$eval(bell, (el) => el.getAttribute("aria-expanded")), "false");
  await page.click(bell);
  await page.waitForSelector(".notif-panel .notif-item", { visible: true });
  assert.equal(new URL(page.url()).pathname, "/notifications", "the click opened the panel");
  assert.equal(await page.$eval(bell, (el) => el.getAttribute("aria-expanded")), "true");
  const titles = await page.$$eval(
    ".notif-panel .notif-item .title",
    (els) => els.map((e) => e.textContent),
  );
  assert.deepEqual(titles, ["Aviso 1", "Aviso 2"]);
  assert.equal(
    await page.$eval(".notif-panel .notif-item .title a", (a) => a.getAttribute("href")),
    "/user/billing",
  );

  // Resolving the newest: the list and the count follow, and the store says resolved.
  await page.click(".notif-panel .notif-item:first-child button");
  await page.waitForFunction(
    () => document.querySelectorAll(".notif-panel .notif-item").length === 1,
  );
  await page.waitForFunction(() =>
    document.querySelector("[data-testid=notification-count]")?.textContent === "1"
  );
  assert.equal(
    (await getNotification(portal.deps.kv, tenant.user.id, first.id))?.status,
    "resolved",
  );

  // The resolved filter shows it; Escape closes the panel and gives the focus back.
  await page.click(".notif-panel [data-filter=resolved]");
  await page.waitForFunction(() =>
    document.querySelector(".notif-panel .notif-item .title")?.textContent === "Aviso 1"
  );
  assert.equal(
    await page.$eval(
      ".notif-panel [data-filter=resolved]",
      (b) => b.getAttribute("aria-pressed"),
    ),
    "true",
  );
  await page.keyboard.press("Escape");
  await page.waitForSelector(".notif-panel", { hidden: true });
  assert.equal(
    await page.evaluate(() => document.activeElement?.getAttribute("data-testid")),
    "notification-bell",
  );

  // From the keyboard: Enter opens it again.
  await page.keyboard.press("Enter");
  await page.waitForSelector(".notif-panel", { visible: true });

  // Control: a page with a React island (the zone level editor) does load React.
  const admin = await addAccount(portal, "admin");
  const adminPage = await freshPage(browser);
  await signIn(adminPage, portal, admin.email, admin.password);
  await adminPage.goto(`${portal.url}/admin/zones/new`, { waitUntil: "load" });
  assert.ok(await adminPage.$("[data-island=ZoneLevels]"), "the page has a React island");
  assert.ok(
    (await loadedScripts(adminPage)).some((s) => s.text.includes(REACT_MARK)),
    "the check recognises React where it is loaded",
  );
});

test("without JavaScript the bell is a link to the notifications page", async ({ portal, browser }) => {
  const tenant = await addAccount(portal, "user");
  await notify(portal, tenant.user.id, 1, "bill_created");
  const page = await freshPage(browser);
  await page.setJavaScriptEnabled(false);
  await signIn(page, portal, tenant.email, tenant.password);
  await page.goto(`${portal.url}/user/pricing`, { waitUntil: "load" });
  assert.equal(await badge(page), "1");
  assert.equal(await page.$eval(".notif-panel", (el) => getComputedStyle(el).display), "none");
  await Promise.all([
    page.waitForNavigation({ waitUntil: "load" }),
    page.click("[data-testid=notification-bell]"),
  ]);
  assert.equal(new URL(page.url()).pathname, "/notifications");
});
