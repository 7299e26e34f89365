/**
 * The bell's open alerts in Chromium (issue 30): an admin with an open alert and a notification
 * opens the panel; the alerts section lists the alert, linked to its card on /admin/alerts, and
 * the notifications list below still shows the notification (each list filled in its own place).
 */
import assert from "node:assert/strict";
import { createNotification } from "../../db/notifications.ts";
import { ruleInputSchema } from "../../core/alert_rules.ts";
import { createRule } from "../../services/alerts/mod.ts";
import { openFor } from "../../services/alerts/changes.ts";
import { addAccount, freshPage, signIn, test } from "./_browser.ts";

test("the bell's panel lists the open alert above the notifications, linked to its card", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin");
  await createNotification(portal.deps.kv, {
    user_id: admin.user.id,
    type: "bill_created",
    priority: "low",
    title: "Aviso 1",
    message: "Mensaje 1",
    link: "/admin",
  }, Date.now() - 60_000);
  const deps = { ...portal.deps, now: Date.now };
  const rule = await createRule(
    deps,
    ruleInputSchema.parse({ template: "reverse_power" }),
    admin.user.id,
  );
  const place = { serial: "SIM-X", device_id: 7, station_id: 5, zone_id: null, unit_id: null };
  assert.ok(await openFor(deps, rule, place, Date.now() - 5 * 60_000, -300, "total_power"));

  const page = await freshPage(browser);
  await signIn(page, portal, admin.email, admin.password);
  await page.goto(`${portal.url}/admin`, { waitUntil: "load" });
  assert.equal(
    await page.$eval("[data-testid=notification-count]", (el) => el.textContent),
    "2",
  );
  await page.click("[data-testid=notification-bell]");
  await page.waitForSelector("[data-testid=bell-alerts] li a", { visible: true });
  const link = await page.$eval("[data-testid=bell-alerts] li a", (a) => ({
    text: a.textContent,
    href: a.getAttribute("href"),
  }));
  assert.match(link.text ?? "", /SIM-X/);
  assert.match(link.href ?? "", /^\/admin\/alerts\?id=\d{14}[0-9a-f]{8}$/);
  await page.waitForFunction(() =>
    [...document.querySelectorAll(".notif-panel ul[aria-live] li")].some((li) =>
      li.textContent?.includes("Aviso 1")
    )
  );
  assert.equal(await page.$$eval("[data-testid=bell-alerts] li", (l) => l.length), 1);
});
