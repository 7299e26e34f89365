/**
 * The admin billing pages (/admin/units-billing, /admin/stations-billing) without JavaScript:
 * picker defaults and resets, processing through the page, the lists, delete with
 * confirmation, and bad query values.
 */
import assert from "node:assert/strict";
import { billingWorld, meter, payBill } from "./_billing_world.ts";
import { account, call, type TestApp, testsWith } from "./_helpers.ts";
import { listCustomerBills, listUnitBills } from "../db/bills.ts";
import { defaultPeriod } from "../core/periods.ts";
import { defaultZone } from "../core/zone.ts";
import { createZone } from "../db/zones.ts";
import { localParts } from "../core/local_time.ts";
import { firstWord } from "../components/billing/model.ts";
import { listStatus as unitBillStatus } from "../core/bill_status.ts";

const test = testsWith(billingWorld, (w) => w.t.close());

async function html(t: TestApp, path: string, cookie: string, status = 200) {
  const res = await call(t, "GET", path, { cookie });
  assert.equal(res.status, status, path);
  return await res.text();
}

const selected = (page: string, name: string) => {
  const select = new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(page);
  assert.ok(select, `select ${name}`);
  return /<option[^>]*value="([^"]*)"[^>]*selected/.exec(select[1])?.[1] ?? null;
};

test("/admin/units-billing preselects the first zone, this year and the default period", async (w) => {
  const cookie = `token=${w.admin}`;
  const today = localParts(w.t.deps.now(), w.t.deps.config.utcOffsetMinutes);
  const page = await html(w.t, "/admin/units-billing", cookie);
  assert.equal(selected(page, "zone_id"), String(w.zoneId));
  assert.equal(selected(page, "year"), String(today.year));
  assert.equal(selected(page, "period"), defaultPeriod("monthly", today.year, today));
  assert.match(page, /No bills found for this period/);
  assert.match(page, /Process Zone/);
  // A period of another year (or another billing type) is reset to the default.
  const reset = await html(
    w.t,
    `/admin/units-billing?zone_id=${w.zoneId}&year=${today.year}&period=1999-01-02`,
    cookie,
  );
  assert.equal(selected(reset, "period"), defaultPeriod("monthly", today.year, today));
});

test("processing through the page creates the bills, listed with status and money", async (w) => {
  const cookie = `token=${w.admin}`;
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  const form = { zone_id: String(w.zoneId), period: "2026-01" };
  // Without confirm=yes: a confirmation page, nothing written.
  let res = await call(w.t, "POST", "/admin/units-billing/process", { cookie, form });
  assert.equal(res.status, 200);
  assert.match(await res.text(), /Process Billing/);
  assert.equal((await listUnitBills(w.t.deps.kv)).length, 0);
  res = await call(w.t, "POST", "/admin/units-billing/process", {
    cookie,
    form: { ...form, confirm: "yes" },
  });
  assert.equal(res.status, 303);
  const location = res.headers.get("location")!;
  assert.match(location, /^\/admin\/units-billing\?.*result=ok.*fin=1.*uc=2.*sc=1/);
  const page = await html(w.t, location, cookie);
  assert.match(page, /Processing Complete/);
  // Unit and station bills counted apart: 2 unit bills over a list of 2, 1 station bill.
  assert.match(page, /data-count="row_created"[^]*?<td class="num">2<\/td><td class="num">1</);
  assert.match(page, /the bills are finalized/);
  assert.match(page, /200\.00/);
  assert.match(page, /336\.40 MXN/);
  assert.match(page, /593\.34 MXN/);
  assert.match(page, /Depto 1/);
  assert.match(page, /data-status="saved"/);
  assert.match(page, /Pending · Due 20\d\d-\d\d-\d\d/);
  assert.match(page, /\/admin\/report\/station\/\d+\/unit\/unit_1/);
  assert.match(page, /data-testid="tile-total"[^]*?>2</);
  // The station page lists the customer bill.
  const st = await html(
    w.t,
    `/admin/stations-billing?zone_id=${w.zoneId}&year=2026&period=2026-01`,
    cookie,
  );
  assert.match(st, /72\.15 MXN/);
  assert.match(st, /141\.69 MXN/);
  assert.match(st, /Finalized/);
  // A bad period fails with its text, never a 500.
  res = await call(w.t, "POST", "/admin/units-billing/process", {
    cookie,
    form: { zone_id: String(w.zoneId), period: "2026-13", confirm: "yes" },
  });
  assert.equal(res.status, 303);
  const failed = await html(w.t, res.headers.get("location")!, cookie);
  assert.match(failed, /Processing Failed/);
  assert.match(failed, /Invalid period/);
});

test("the stations page notices when processing finds no unit bills", async (w) => {
  const cookie = `token=${w.admin}`;
  const empty = await createZone(w.t.deps.kv, defaultZone("Empty"), Date.now());
  const res = await call(w.t, "POST", "/admin/stations-billing/process", {
    cookie,
    form: { zone_id: String(empty.id), period: "2026-01", confirm: "yes" },
  });
  assert.equal(res.status, 303);
  const loc = res.headers.get("location")!;
  assert.match(loc, /result=ok/);
  const page = await html(w.t, loc, cookie);
  assert.match(page, /No unit bills available/);
  assert.match(page, /href="\/admin\/units-billing"/);
  // A zone with units gets its customer bill and no notice.
  const res2 = await call(w.t, "POST", "/admin/stations-billing/process", {
    cookie,
    form: { zone_id: String(w.zoneId), period: "2026-01", confirm: "yes" },
  });
  const page2 = await html(w.t, res2.headers.get("location")!, cookie);
  assert.doesNotMatch(page2, /No unit bills available/);
  assert.match(page2, /data-count="row_created"[^]*?<td class="num">2<\/td><td class="num">1</);
});

test("deleting a bill asks first, and a paid bill cannot be deleted", async (w) => {
  const cookie = `token=${w.admin}`;
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  await call(w.t, "POST", "/admin/units-billing/process", {
    cookie,
    form: { zone_id: String(w.zoneId), period: "2026-01", confirm: "yes" },
  });
  const [a, b] = await listUnitBills(w.t.deps.kv);
  const back = { zone_id: String(w.zoneId), year: "2026", period: "2026-01" };
  let res = await call(w.t, "POST", `/admin/units-billing/bills/${a.id}/delete`, {
    cookie,
    form: back,
  });
  assert.equal(res.status, 200);
  assert.match(await res.text(), /Delete Bill/);
  assert.equal((await listUnitBills(w.t.deps.kv)).length, 2);
  res = await call(w.t, "POST", `/admin/units-billing/bills/${a.id}/delete`, {
    cookie,
    form: { ...back, confirm: "yes" },
  });
  assert.equal(res.status, 303);
  assert.match(res.headers.get("location")!, /done=deleted/);
  assert.match(await html(w.t, res.headers.get("location")!, cookie), /Bill deleted/);
  assert.equal((await listUnitBills(w.t.deps.kv)).length, 1);
  await payBill(w, b.id);
  res = await call(w.t, "POST", `/admin/units-billing/bills/${b.id}/delete`, {
    cookie,
    form: { ...back, confirm: "yes" },
  });
  assert.match(res.headers.get("location")!, /error=bill_paid/);
  const page = await html(w.t, res.headers.get("location")!, cookie);
  assert.match(page, /A paid bill cannot be deleted/);
  assert.match(page, /data-status="saved"/);
  const [cust] = await listCustomerBills(w.t.deps.kv);
  res = await call(w.t, "POST", `/admin/stations-billing/bills/${cust.id}/delete`, {
    cookie,
    form: { ...back, confirm: "yes" },
  });
  assert.match(res.headers.get("location")!, /done=deleted/);
  assert.equal((await listCustomerBills(w.t.deps.kv)).length, 0);
});

test("billing pages redirect non-admins and never fail on bad query values", async (w) => {
  const cookie = `token=${w.admin}`;
  for (const base of ["/admin/units-billing", "/admin/stations-billing"]) {
    for (
      const q of [
        "?zone_id=abc&year=x&period=nope",
        "?zone_id=999999&year=99999&period=2026-13",
        "?zone_id=-1&year=1800&period=%00",
        "?result=failed&reason=<script>&error=zzz&created=-5",
      ]
    ) await html(w.t, `${base}${q}`, cookie);
    const res = await call(w.t, "POST", `${base}/bills/abc/delete`, {
      cookie,
      form: { confirm: "yes" },
    });
    assert.equal(res.status, 303);
    const tenant = await call(w.t, "GET", base, { cookie: `token=${w.tenantTokens[0]}` });
    assert.equal(tenant.status, 302);
    assert.equal(tenant.headers.get("location"), "/");
    const customer = await account(w.t, "customer");
    const c2 = await call(w.t, "POST", `${base}/process`, {
      cookie: `token=${customer.token}`,
      form: { zone_id: String(w.zoneId), period: "2026-01", confirm: "yes" },
    });
    assert.equal(c2.status, 302);
  }
  assert.equal((await listUnitBills(w.t.deps.kv)).length, 0);
});

Deno.test("listStatus() derives the list status of spec 001 section 4", () => {
  const base = {
    is_finalized: false,
    is_estimation: false,
    override_reason: null,
    recalculation_method: null,
    created_by: null,
  };
  assert.equal(unitBillStatus(base, true).key, "not_saved");
  assert.deepEqual(unitBillStatus({ ...base, is_estimation: true }, true), {
    key: "estimate",
    colour: "blue",
  });
  assert.equal(unitBillStatus({ ...base, is_estimation: true }, false).colour, "red");
  const fin = { ...base, is_finalized: true };
  assert.deepEqual(unitBillStatus(fin, false), { key: "saved", colour: "green" });
  assert.equal(unitBillStatus({ ...fin, is_estimation: true }, false).colour, "red");
  assert.equal(unitBillStatus({ ...fin, created_by: "a@b.mx" }, false).key, "partially_saved");
  assert.equal(
    unitBillStatus({ ...fin, created_by: "x", recalculation_method: "manual_input" }, false).key,
    "recalculated",
  );
  assert.equal(firstWord("  María  López "), "María");
  assert.equal(firstWord(""), null);
});
