/**
 * The tenant's billing page opens on a bill (issue "what a newcomer trips on", item 2): without
 * a period it shows the newest unpaid bill's period, else the newest bill's, instead of the
 * current month that has no bill yet; the dashboard's links to it land there too.
 */
import assert from "node:assert/strict";
import {
  billingTest,
  type BillingWorld,
  payBill,
  processPeriod,
  unitBillOf,
} from "./_billing_world.ts";
import { call } from "./_helpers.ts";
import { localParts } from "../core/local_time.ts";

/** The month `back` months before the current one, `YYYY-MM`. */
function monthsBack(now: number, off: number, back: number): string {
  const p = localParts(now, off);
  return new Date(Date.UTC(p.year, p.month - 1 - back, 1)).toISOString().slice(0, 7);
}

/** The period chosen in the page's period picker. */
/** `Deno.test` in a fresh default billing world, closed however the test ends. */
const worldTest = (name: string, fn: (w: BillingWorld) => Promise<void>) =>
  billingTest(name, {}, fn);

const selected = (html: string) =>
  /<option value="(\d{4}-\d\d(?:-\d\d)?)" selected/.exec(html)?.[1];

worldTest("/user/billing opens on the newest unpaid bill, else the newest bill", async (w) => {
  const off = w.t.deps.config.utcOffsetMinutes;
  const older = monthsBack(w.t.deps.now(), off, 2);
  const newer = monthsBack(w.t.deps.now(), off, 1);
  await processPeriod(w, older, { "SIM-A": 100, "SIM-B": 100 });
  await processPeriod(w, newer, { "SIM-A": 300, "SIM-B": 100 });
  const open = async (path: string) => {
    const res = await call(w.t, "GET", path, { token: w.tenantTokens[0] });
    assert.equal(res.status, 200);
    return await res.text();
  };
  // Both unpaid: the newest.
  let html = await open("/user/billing");
  assert.equal(selected(html), newer);
  assert.doesNotMatch(html, /No se encontraron facturas|No bills found/);
  assert.match(html, /data-testid="tenant-bill"|Depto 1/);
  // The newest paid: the older unpaid one comes first.
  await payBill(w, (await unitBillOf(w, newer)).id);
  html = await open("/user/billing");
  assert.equal(selected(html), older);
  // All paid: the newest bill again.
  await payBill(w, (await unitBillOf(w, older)).id);
  assert.equal(selected(await open("/user/billing")), newer);
  // An asked period is kept; the dashboard's links go to the page or to a bill's period.
  assert.equal(selected(await open(`/user/billing?period=${older}`)), older);
  const home = await open("/user");
  assert.match(home, /href="\/user\/billing"/);
  assert.match(home, new RegExp(`href="/user/billing\\?period=${newer}"`));
});

worldTest("/user/billing of a year without bills stays in that year", async (w) => {
  const off = w.t.deps.config.utcOffsetMinutes;
  await processPeriod(w, monthsBack(w.t.deps.now(), off, 1), { "SIM-A": 100, "SIM-B": 100 });
  const year = localParts(w.t.deps.now(), w.t.deps.config.utcOffsetMinutes).year - 2;
  const res = await call(w.t, "GET", `/user/billing?year=${year}`, { token: w.tenantTokens[0] });
  assert.equal(res.status, 200);
  assert.equal(selected(await res.text())?.slice(0, 4), String(year));
});

worldTest(
  "a bill whose station is gone says 'Station not found' on the tenant's list",
  async (w) => {
    const period = monthsBack(w.t.deps.now(), w.t.deps.config.utcOffsetMinutes, 1);
    await processPeriod(w, period, { "SIM-A": 100, "SIM-B": 100 });
    await w.t.deps.kv.delete(["devices", w.stationId]);
    const res = await call(w.t, "GET", `/user/billing?period=${period}`, {
      token: w.tenantTokens[0],
    });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<dd>Estación no encontrada<\/dd>/);
  },
);
