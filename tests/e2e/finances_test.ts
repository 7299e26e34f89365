/**
 * The finance pages in headless Chromium against the real portal, with the demo billed for
 * its three last closed months and one bill paid: the admin's `/admin/finances` and the
 * owner's `/customer/billing` at 360x740 and 1280x800 draw their charts, fit the screen, log
 * no error, and axe-core finds no serious or critical violation (also with the how-it-works
 * panel open and on the empty state).
 */
import assert from "node:assert/strict";
import {
  addAccount,
  assertFits as fits,
  axeSerious,
  chartDrawn,
  collectConsole,
  freshPage,
  signIn,
  test,
} from "./_browser.ts";
import { seedDemo } from "../../services/demo.ts";
import { listZones } from "../../db/zones.ts";
import { listUnitBills } from "../../db/bills.ts";
import { periodBounds, recordPayment, runBilling } from "../../services/billing/mod.ts";
import { parsePeriod } from "../../core/periods.ts";
import { localDate } from "../../core/local_time.ts";

const H = 3_600_000;

/** The `n` months before the current one, oldest first (`YYYY-MM`). */
function closedMonths(n: number): string[] {
  const out: string[] = [];
  const now = new Date(Date.now() - 6 * 3_600_000);
  for (let i = n; i >= 1; i--) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    out.push(d.toISOString().slice(0, 7));
  }
  return out;
}

test("the finance pages draw, fit phone and desktop, and pass axe", async ({ portal, browser }) => {
  const admin = await addAccount(portal, "admin", { full_name: "Ana Admin" });
  const demo = await seedDemo(portal.deps);
  const zone = (await listZones(portal.deps.kv))[0];
  const off = portal.deps.config.utcOffsetMinutes;
  let counter = 1000;
  for (const m of closedMonths(3)) {
    const { from, to } = periodBounds(parsePeriod(m), off);
    portal.deps.telemetry.write(demo.meters.flatMap((serial, i) => [
      { serial, ts: from + H, values: { total_energy_kwh: counter } },
      { serial, ts: to - H, values: { total_energy_kwh: counter + 120 + 60 * i } },
    ]));
    counter += 500;
    await portal.deps.telemetry.flush();
    await runBilling(portal.deps, zone.id, m);
  }
  const bill = (await listUnitBills(portal.deps.kv)).find((b) =>
    b.is_finalized && b.payment_status !== "paid" && b.total_cost > 0
  )!;
  await recordPayment(portal.deps, bill.id, {
    method: "cash",
    payment_date: localDate(portal.deps.now(), portal.deps.config.utcOffsetMinutes),
  }, { id: 1 });

  const problems: string[] = [];
  for (const [width, height] of [[360, 740], [1280, 800]]) {
    const adminPage = await freshPage(browser);
    await adminPage.setViewport({ width, height });
    const log = collectConsole(adminPage);
    await signIn(adminPage, portal, admin.email, admin.password);
    await adminPage.goto(`${portal.url}/admin/finances`, { waitUntil: "load" });
    await chartDrawn(adminPage, "finance-trend");
    await chartDrawn(adminPage, "finance-zones");
    const tiles = await adminPage.$$eval("[data-testid=finance-tiles] .stat", (n) => n.length);
    assert.equal(tiles, 4);
    await fits(adminPage);
    for (const v of await axeSerious(adminPage)) {
      problems.push(`/admin/finances ${width}: ${v.id}`);
    }
    await adminPage.goto(`${portal.url}/admin/finances?currency=USD`, { waitUntil: "load" });
    await adminPage.waitForSelector("[data-testid=finance-empty]");
    await fits(adminPage);
    for (const v of await axeSerious(adminPage)) problems.push(`empty ${width}: ${v.id}`);

    const owner = await freshPage(browser);
    await owner.setViewport({ width, height });
    const ownerLog = collectConsole(owner);
    await signIn(owner, portal, "cliente@demo.mx", "demo1234");
    await owner.goto(`${portal.url}/customer/billing`, { waitUntil: "load" });
    await chartDrawn(owner, "owner-billing");
    const sections = await owner.$$eval("[data-testid=period-section]", (n) => n.length);
    assert.ok(sections >= 3, `${sections} period sections`);
    const rows = await owner.$$eval("[data-testid=owner-unit-bills] tbody tr", (n) => n.length);
    assert.ok(rows > 0, "the owner sees unit bills");
    await fits(owner);
    await owner.click("[data-testid=how-it-works] summary");
    await owner.waitForSelector("[data-testid=how-it-works][open]");
    for (const v of await axeSerious(owner)) problems.push(`/customer/billing ${width}: ${v.id}`);
    const errors = [...log, ...ownerLog].filter((e) =>
      e.kind === "error" || e.kind === "pageerror"
    );
    assert.deepEqual(errors, [], "the browser logged errors");
    await adminPage.browserContext().close();
    await owner.browserContext().close();
  }
  assert.deepEqual(problems, []);
});
