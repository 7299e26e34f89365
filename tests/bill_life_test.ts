/**
 * A bill's life through the services and the API (issue 9 "bills as a contract and a life"):
 * a run on a month that has ended (at local midnight) finalizes, due 10 business days after the
 * run's local date, and tells each tenant once; a total of 0 is settled at once; a run on the
 * open month writes drafts nobody is told of and tenants do not see; a rerun leaves finalized
 * bills alone and counts them skipped; a future period is refused; the overdue sweep after the
 * due date (late fee 50.00 MXN, one notice, idempotent; a live SPEI reference waits, an expired
 * one does not); an admin recording a payment (and refused input); deleting a finalized unpaid
 * bill restates the station bill (and a rerun that bills the unit again counts it again),
 * deleting a paid one or one with a live SPEI reference is refused; a zone's stations' payment
 * status; the CSV exports; the four monthly/bimonthly admin billing paths.
 *
 * The world (built here, with a movable clock and tokens that outlive the weeks it moves):
 * zone "Tiered" (MXN; 1.00/kWh to 150, 2.00 to 280, 3.00 above; base 40.00; tax 16 %;
 * commission 10 %, fee 25.00 per unit, customer tax 16 %), station "Norte" owned by a customer
 * with unit_1 "Depto 1" (tenant A, Spanish, meter SIM-A) and unit_2 "Depto 2" (tenant B,
 * English, meter SIM-B). The clock starts Thursday 2026-12-03 09:00 local (UTC−6), so November
 * has ended and December is the open month.
 */
import assert from "node:assert/strict";
import { call, type TestApp, testsWith } from "./_helpers.ts";
import { billingWorld, meter, stationCounts, unitCounts } from "./_billing_world.ts";
import { defaultZone, type Zone } from "../core/zone.ts";
import { createZone } from "../db/zones.ts";
import { changePayment } from "../core/payment.ts";
import {
  getUnitBillEntry,
  listCustomerBills,
  listUnitBills,
  type StoredUnitBill,
  updateUnitBill,
} from "../db/bills.ts";
import { listNotifications } from "../db/notifications.ts";
import { Refusal } from "../services/refusal.ts";
import { runBilling, sweepOverdue } from "../services/billing/mod.ts";

const H = 3_600_000;
/** Thursday 2026-12-03 09:00 in the business time zone (UTC−6). */
const T0 = Date.parse("2026-12-03T15:00:00.000Z");

interface World {
  t: TestApp;
  clock: { now: number };
  zoneId: number;
  stationId: number;
  admin: { id: number; email: string; token: string };
  owner: { id: number; token: string };
  tenants: { id: number; token: string }[];
}

/** The billing world with an owner, its clock at T0 and tokens outliving the weeks it moves. */
async function world(zone: Partial<Zone> = {}): Promise<World> {
  const w = await billingWorld({
    now: T0,
    zone,
    owner: true,
    admin: { email: "billing.admin@test.mx" },
    tenants: [{ language: "es" }, { language: "en" }],
  });
  assert.ok(w.owner);
  return {
    t: w.t,
    clock: w.clock,
    zoneId: w.zoneId,
    stationId: w.stationId,
    admin: { id: w.adminUser.id, email: w.adminUser.email, token: w.admin },
    owner: w.owner,
    tenants: w.tenants.map((id, i) => ({ id, token: w.tenantTokens[i] })),
  };
}

const test = testsWith(world, (w) => w.t.close());

/** November metered (unit_1 200 kWh → 336.40; unit_2 300.5 kWh → 593.34) and billed at T0. */
async function novemberBilled(w: World) {
  await meter(w.t, "SIM-A", "2026-11", 200);
  await meter(w.t, "SIM-B", "2026-11", 300.5);
  const res = await runBilling(w.t.deps, w.zoneId, "2026-11");
  assert.deepEqual(res.failures, []);
  return res;
}

async function unitBill(w: World, unit: string, period = "2026-11"): Promise<StoredUnitBill> {
  const b = (await listUnitBills(w.t.deps.kv, w.stationId, period)).find((x) => x.unit_id === unit);
  assert.ok(b, `no bill of ${unit} in ${period}`);
  return b;
}

async function notes(w: World, userId: number, type: string) {
  return (await listNotifications(w.t.deps.kv, userId, "all", 100)).filter((n) => n.type === type);
}

/** Posts a billing run of `period` for the world's zone, as the admin. */
function billingRun(w: World, period: string) {
  return call(w.t, "POST", "/api/unified-billing/process", {
    token: w.admin.token,
    json: { period, zone_id: w.zoneId },
  });
}

async function json(res: Response) {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`not JSON (${res.status}): ${text.slice(0, 200)}`);
  }
}

test("a run on last month finalizes unit and station bills due in 10 business days and notifies each tenant once", async (w) => {
  const res = await novemberBilled(w);
  assert.equal(res.finalized, true);
  assert.deepEqual(res.unit_bills, unitCounts({ created: 2 }));
  assert.deepEqual(res.station_bills, stationCounts({ created: 1 }));
  assert.equal(res.total_bills_created, 3);
  const a = await unitBill(w, "unit_1");
  const b = await unitBill(w, "unit_2");
  assert.equal(a.total_cost, 33640);
  assert.equal(b.total_cost, 59334);
  for (const x of [a, b]) {
    assert.equal(x.is_finalized, true);
    assert.equal(x.finalized_at, new Date(T0).toISOString());
    // Thursday 3 Dec + 10 business days (no holiday in between) = Thursday 17 Dec.
    assert.equal(x.payment_due_date, "2026-12-17");
    assert.equal(x.payment_status, "pending");
    assert.equal(x.payment_date, null);
    assert.equal(x.late_fee, 0);
    assert.deepEqual(x.payment_history.map((h) => [h.from, h.to, h.cause]), [
      [null, "pending", "finalized"],
    ]);
  }
  const [cust] = await listCustomerBills(w.t.deps.kv, w.stationId);
  assert.equal(cust.is_finalized, true);
  assert.equal(cust.billing_month, "2026-11");
  assert.equal(cust.total_amount, 14169);
  for (const [i, tenant] of w.tenants.entries()) {
    const created = await notes(w, tenant.id, "bill_created");
    assert.equal(created.length, 1, `tenant ${i}`);
    assert.equal(created[0].subject_id, `bill:${[a, b][i].id}`);
    assert.equal(created[0].link, "/user/billing?period=2026-11");
    assert.equal(created[0].params?.amount, [33640, 59334][i]);
    assert.equal(created[0].params?.unit, ["Depto 1", "Depto 2"][i]);
  }
  // The station's owner is not told of a tenant's bill.
  assert.deepEqual(await notes(w, w.owner.id, "bill_created"), []);
});

test("a rerun on an ended period leaves the finalized bills alone, counts them skipped and notifies nobody again", async (w) => {
  await novemberBilled(w);
  const before = await listUnitBills(w.t.deps.kv);
  const custBefore = await listCustomerBills(w.t.deps.kv);
  await meter(w.t, "SIM-A", "2026-11", 250); // the readings change after finalizing
  w.clock.now += 24 * H;
  const res = await billingRun(w, "2026-11");
  assert.equal(res.status, 200);
  const body = await json(res);
  assert.equal(body.finalized, true);
  assert.deepEqual(body.unit_bills, unitCounts({ skipped: 2 }));
  assert.deepEqual(body.station_bills, stationCounts({ skipped: 1 }));
  assert.equal(body.total_bills_created, 0);
  assert.equal(body.total_bills_updated, 0);
  assert.equal(body.bills_skipped, 2);
  assert.equal(body.customer_bills_skipped, 1);
  assert.deepEqual(await listUnitBills(w.t.deps.kv), before);
  assert.deepEqual(await listCustomerBills(w.t.deps.kv), custBefore);
  for (const tenant of w.tenants) {
    assert.equal((await notes(w, tenant.id, "bill_created")).length, 1);
  }
});

test("a run on the current month writes drafts, notifies nobody, and tenants' /api/bills hides them", async (w) => {
  await meter(w.t, "SIM-A", "2026-12", 40);
  await meter(w.t, "SIM-B", "2026-12", 60);
  const res = await billingRun(w, "2026-12");
  assert.equal(res.status, 200);
  const body = await json(res);
  assert.equal(body.finalized, false);
  assert.equal(body.unit_bills.created, 2);
  assert.equal(body.station_bills.created, 1);
  for (const unit of ["unit_1", "unit_2"]) {
    const b = await unitBill(w, unit, "2026-12");
    assert.equal(b.is_finalized, false);
    assert.equal(b.finalized_at, null);
    assert.equal(b.payment_due_date, null);
    assert.ok(b.total_cost > 0);
  }
  const [cust] = await listCustomerBills(w.t.deps.kv, w.stationId);
  assert.equal(cust.is_finalized, false);
  for (const id of [...w.tenants.map((x) => x.id), w.owner.id]) {
    assert.deepEqual(await listNotifications(w.t.deps.kv, id, "all", 100), []);
  }
  const q = `station_id=${w.stationId}&billing_month=2026-12`;
  const admin = await json(await call(w.t, "GET", `/api/bills?${q}`, { token: w.admin.token }));
  assert.equal(admin.bills.length, 2);
  const tenant = await json(
    await call(w.t, "GET", `/api/bills?${q}`, { token: w.tenants[0].token }),
  );
  assert.deepEqual(tenant, { bills: [] });

  // Once November is finalized the tenant sees that bill, and still not December's draft.
  await novemberBilled(w);
  const mine = await json(await call(w.t, "GET", "/api/bills", { token: w.tenants[0].token }));
  assert.deepEqual(
    mine.bills.map((b: StoredUnitBill) => [b.unit_id, b.billing_month, b.is_finalized]),
    [["unit_1", "2026-11", true]],
  );
  assert.equal(mine.bills[0].total_cost, 336.4);
});

test("a month ends at local midnight: a run a minute before drafts, a run at midnight finalizes the drafts and notifies then", async (w) => {
  await meter(w.t, "SIM-A", "2026-11", 200);
  await meter(w.t, "SIM-B", "2026-11", 300.5);
  // 30 Nov 23:59 local (UTC−6) is 05:59 UTC on 1 Dec: November is still open.
  w.clock.now = Date.parse("2026-12-01T05:59:00.000Z");
  const open = await runBilling(w.t.deps, w.zoneId, "2026-11");
  assert.equal(open.finalized, false);
  assert.equal(open.unit_bills.created, 2);
  assert.equal((await unitBill(w, "unit_1")).is_finalized, false);
  for (const tenant of w.tenants) assert.deepEqual(await notes(w, tenant.id, "bill_created"), []);

  // Midnight local, Tuesday 1 Dec: the drafts are finalized in place and told once.
  w.clock.now = Date.parse("2026-12-01T06:00:00.000Z");
  const ended = await runBilling(w.t.deps, w.zoneId, "2026-11");
  assert.equal(ended.finalized, true);
  assert.deepEqual(
    [ended.unit_bills.created, ended.unit_bills.updated, ended.unit_bills.skipped],
    [0, 2, 0],
  );
  assert.deepEqual(
    [ended.station_bills.created, ended.station_bills.updated, ended.station_bills.skipped],
    [0, 1, 0],
  );
  const a = await unitBill(w, "unit_1");
  assert.equal(a.is_finalized, true);
  assert.equal(a.finalized_at, "2026-12-01T06:00:00.000Z");
  // Tuesday 1 Dec + 10 business days = Tuesday 15 Dec.
  assert.equal(a.payment_due_date, "2026-12-15");
  assert.equal((await listCustomerBills(w.t.deps.kv))[0].is_finalized, true);
  for (const tenant of w.tenants) {
    assert.equal((await notes(w, tenant.id, "bill_created")).length, 1);
  }
});

Deno.test("a finalized bill with a total of 0 shows nothing due, stays pending and recalculable, tells nobody and is hidden from the tenant", async () => {
  const w = await world({ base_tariff: 0 });
  try {
    await meter(w.t, "SIM-A", "2026-11", 0);
    await meter(w.t, "SIM-B", "2026-11", 100);
    const res = await runBilling(w.t.deps, w.zoneId, "2026-11");
    assert.equal(res.finalized, true);
    const zero = await unitBill(w, "unit_1");
    assert.equal(zero.total_cost, 0);
    assert.equal(zero.is_finalized, true);
    assert.equal(zero.payment_status, "pending", "only a payment makes a bill paid");
    assert.equal(zero.payment_date, null);
    assert.deepEqual(zero.payment_history.map((h) => [h.to, h.cause]), [["pending", "finalized"]]);
    const some = await unitBill(w, "unit_2");
    assert.equal(some.payment_status, "pending");
    assert.deepEqual(await notes(w, w.tenants[0].id, "bill_created"), []);
    assert.equal((await notes(w, w.tenants[1].id, "bill_created")).length, 1);
    const mine = await json(await call(w.t, "GET", "/api/bills", { token: w.tenants[0].token }));
    assert.deepEqual(mine, { bills: [] });
    // Nothing to pay: recording a payment is refused, and the sweep leaves it alone.
    const pay = await call(w.t, "POST", `/api/bills/${zero.id}/payments`, {
      token: w.admin.token,
      json: { method: "cash", payment_date: "2026-12-03" },
    });
    assert.equal(pay.status, 409);
    await pay.body?.cancel();
    w.clock.now = Date.parse("2027-01-10T18:00:00.000Z");
    await sweepOverdue(w.t.deps);
    assert.equal((await unitBill(w, "unit_1")).payment_status, "pending");
    assert.equal((await unitBill(w, "unit_1")).late_fee, 0);
    assert.equal((await unitBill(w, "unit_2")).payment_status, "overdue");
    // The meter's reading is known later: the admin recalculates the bill of 0.
    const recalc = await call(w.t, "PUT", `/api/bills/${zero.id}`, {
      token: w.admin.token,
      json: {
        recalculation_method: "manual_input",
        energy_consumption: "42",
        override_reason: "meter read on site",
      },
    });
    assert.equal(recalc.status, 200);
    await recalc.body?.cancel();
    const fixed = await unitBill(w, "unit_1");
    assert.equal(fixed.energy_consumption, 42);
    assert.ok(fixed.total_cost > 0);
    assert.equal(fixed.payment_status, "pending");
  } finally {
    w.t.close();
  }
});

test("the due date counts 10 business days from the run's local date, not the UTC one", async (w) => {
  await novemberBilled(w); // leaves readings; the bills are removed below
  for (const b of await listUnitBills(w.t.deps.kv)) {
    const res = await call(w.t, "DELETE", `/api/bills/${b.id}`, { token: w.admin.token });
    assert.equal(res.status, 200);
    await res.body?.cancel();
  }
  // Thursday 3 Dec 22:00 local is Friday 4 Dec 04:00 UTC.
  w.clock.now = Date.parse("2026-12-04T04:00:00.000Z");
  await runBilling(w.t.deps, w.zoneId, "2026-11");
  const a = await unitBill(w, "unit_1");
  assert.equal(a.finalized_at, "2026-12-04T04:00:00.000Z");
  assert.equal(a.payment_due_date, "2026-12-17"); // from the 4th it would be the 18th
});

test("a future period is refused as invalid input and nothing is written or notified", async (w) => {
  await meter(w.t, "SIM-A", "2026-11", 200);
  for (const period of ["2027-01", "2027-01-02"]) {
    await assert.rejects(
      () => runBilling(w.t.deps, w.zoneId, period),
      (e) => e instanceof Refusal && e.kind === "invalid" && "period" in e.fields,
      period,
    );
    const res = await billingRun(w, period);
    assert.equal(res.status, 400, period);
    const body = await json(res);
    assert.equal(typeof body.errors?.period, "string");
  }
  assert.deepEqual(await listUnitBills(w.t.deps.kv), []);
  assert.deepEqual(await listCustomerBills(w.t.deps.kv), []);
  for (const tenant of w.tenants) {
    assert.deepEqual(await listNotifications(w.t.deps.kv, tenant.id, "all", 100), []);
  }
});

test("after the due date the sweep makes unpaid bills overdue with a 50.00 MXN late fee and one notice; a second sweep changes nothing", async (w) => {
  await novemberBilled(w);
  // unit_2 is paid in time and never becomes overdue.
  w.clock.now = Date.parse("2026-12-10T18:00:00.000Z");
  const paid = await call(
    w.t,
    "POST",
    `/api/bills/${(await unitBill(w, "unit_2")).id}/payments`,
    {
      token: w.admin.token,
      json: { method: "cash", payment_date: "2026-12-10" },
    },
  );
  assert.equal(paid.status, 200, await paid.clone().text());
  await paid.body?.cancel();

  // The last day to pay (17 Dec, until midnight local; 03:00 UTC on the 18th) is in time.
  w.clock.now = Date.parse("2026-12-18T03:00:00.000Z");
  const early = await sweepOverdue(w.t.deps);
  assert.equal(early.date, "2026-12-17");
  assert.equal(early.overdue, 0);
  assert.equal((await unitBill(w, "unit_1")).payment_status, "pending");

  w.clock.now = Date.parse("2026-12-18T07:00:00.000Z"); // 01:00 on the 18th, local
  const first = await sweepOverdue(w.t.deps);
  assert.deepEqual(first, { date: "2026-12-18", overdue: 1, late_fees: 1 });
  const a = await unitBill(w, "unit_1");
  assert.equal(a.payment_status, "overdue");
  assert.equal(a.late_fee, 5000);
  assert.equal(a.total_cost, 33640, "the fee is owed beside the total, not in it");
  assert.deepEqual(a.payment_history.at(-1), {
    from: "pending",
    to: "overdue",
    at: "2026-12-18T07:00:00.000Z",
    cause: "due_date_passed",
    by: null,
    late_fee: 5000,
  });
  assert.equal((await unitBill(w, "unit_2")).payment_status, "paid");
  const overdue = await notes(w, w.tenants[0].id, "payment_overdue");
  assert.equal(overdue.length, 1);
  assert.equal(overdue[0].priority, "high");
  assert.equal(overdue[0].params?.amount, 38640);
  assert.deepEqual(await notes(w, w.tenants[1].id, "payment_overdue"), []);

  const api = await json(
    await call(w.t, "GET", "/api/bills?billing_month=2026-11", { token: w.tenants[0].token }),
  );
  assert.equal(api.bills.length, 1);
  assert.equal(api.bills[0].payment_status, "overdue");
  assert.equal(api.bills[0].total_cost, 336.4);
  assert.equal(api.bills[0].late_fee, 50);
  assert.equal(api.bills[0].amount_due, 386.4);
  // The notice reads the amount due with the fee.
  const read = await json(
    await call(w.t, "GET", "/api/notifications", { token: w.tenants[0].token }),
  );
  const notice = read.notifications.find((n: { type: string }) => n.type === "payment_overdue");
  assert.match(notice.message, /386\.40 MXN/);

  const before = await listUnitBills(w.t.deps.kv);
  w.clock.now += 5 * 24 * H;
  const second = await sweepOverdue(w.t.deps);
  assert.equal(second.overdue, 0);
  assert.equal(second.late_fees, 0);
  assert.deepEqual(await listUnitBills(w.t.deps.kv), before);
  assert.equal((await notes(w, w.tenants[0].id, "payment_overdue")).length, 1);
});

/** Moves a stored bill to another payment state as the payment processor's flow would. */
async function setPayment(
  w: World,
  unit: string,
  to: "awaiting_spei_transfer" | "reference_expired",
  extra: Parameters<typeof changePayment>[3] = {},
) {
  const entry = (await getUnitBillEntry(w.t.deps.kv, (await unitBill(w, unit)).id))!;
  const cause = to === "awaiting_spei_transfer" ? "reference_created" : "reference_expired";
  const next = changePayment(entry.value, to, {
    at: new Date(w.clock.now).toISOString(),
    cause,
    by: null,
  }, extra);
  assert.ok(await updateUnitBill(w.t.deps.kv, entry, next));
}

test("the sweep leaves a bill waiting on an SPEI reference; once the reference expired it becomes overdue with one fee", async (w) => {
  await novemberBilled(w);
  w.clock.now = Date.parse("2026-12-16T18:00:00.000Z");
  await setPayment(w, "unit_2", "awaiting_spei_transfer", {
    spei_reference: "REF-2",
    spei_clabe: "646180000000000002",
    spei_expiry_date: "2026-12-21T18:00:00.000Z",
  });
  w.clock.now = Date.parse("2026-12-18T16:00:00.000Z");
  assert.deepEqual(await sweepOverdue(w.t.deps), {
    date: "2026-12-18",
    overdue: 1,
    late_fees: 1,
  });
  assert.equal((await unitBill(w, "unit_1")).payment_status, "overdue");
  assert.equal((await unitBill(w, "unit_2")).payment_status, "awaiting_spei_transfer");
  assert.deepEqual(await notes(w, w.tenants[1].id, "payment_overdue"), []);

  w.clock.now = Date.parse("2026-12-21T19:00:00.000Z");
  await setPayment(w, "unit_2", "reference_expired");
  assert.deepEqual(await sweepOverdue(w.t.deps), {
    date: "2026-12-21",
    overdue: 1,
    late_fees: 1,
  });
  const b = await unitBill(w, "unit_2");
  assert.equal(b.payment_status, "overdue");
  assert.equal(b.late_fee, 5000);
  assert.deepEqual(b.payment_history.map((h) => h.to), [
    "pending",
    "awaiting_spei_transfer",
    "reference_expired",
    "overdue",
  ]);
  assert.equal((await notes(w, w.tenants[1].id, "payment_overdue")).length, 1);
  // unit_1 was not charged or told again.
  assert.equal((await unitBill(w, "unit_1")).late_fee, 5000);
  assert.equal((await notes(w, w.tenants[0].id, "payment_overdue")).length, 1);
  assert.deepEqual(await sweepOverdue(w.t.deps), {
    date: "2026-12-21",
    overdue: 0,
    late_fees: 0,
  });
});

test("an admin records a payment: the bill is paid with who and how kept, tenant and owner are told; a second one is refused", async (w) => {
  await novemberBilled(w);
  w.clock.now = Date.parse("2026-12-04T18:00:00.000Z"); // Friday 4 Dec, local
  const a = await unitBill(w, "unit_1");
  const res = await call(w.t, "POST", `/api/bills/${a.id}/payments`, {
    token: w.admin.token,
    json: { method: "transfer", payment_date: "2026-12-04", reference: "TRX-77", note: "desk" },
  });
  assert.equal(res.status, 200);
  const body = await json(res);
  assert.equal(body.id, a.id);
  assert.equal(body.payment_status, "paid");
  assert.equal(body.payment_date, "2026-12-04");
  assert.equal(body.total_cost, 336.4);
  assert.equal(body.amount_due, 336.4);
  const stored = await unitBill(w, "unit_1");
  assert.equal(stored.payment_status, "paid");
  assert.equal(stored.payment_date, "2026-12-04");
  assert.deepEqual(stored.payment_history.at(-1), {
    from: "pending",
    to: "paid",
    at: "2026-12-04T18:00:00.000Z",
    cause: "recorded_by_admin",
    by: String(w.admin.id),
    method: "transfer",
    reference: "TRX-77",
    note: "desk",
  });
  const tenantNotes = await notes(w, w.tenants[0].id, "payment_received");
  assert.equal(tenantNotes.length, 1);
  assert.equal(tenantNotes[0].link, "/user/billing?period=2026-11");
  const ownerNotes = await notes(w, w.owner.id, "payment_received");
  assert.equal(ownerNotes.length, 1);
  assert.equal(ownerNotes[0].link, `/customer/installations/${w.stationId}`);
  assert.deepEqual(await notes(w, w.tenants[1].id, "payment_received"), []);

  const again = await call(w.t, "POST", `/api/bills/${a.id}/payments`, {
    token: w.admin.token,
    json: { method: "cash", payment_date: "2026-12-04" },
  });
  assert.equal(again.status, 409);
  await again.body?.cancel();
  assert.deepEqual(await unitBill(w, "unit_1"), stored);
  assert.equal((await notes(w, w.tenants[0].id, "payment_received")).length, 1);
  assert.equal((await notes(w, w.owner.id, "payment_received")).length, 1);
});

test("a payment with bad input answers 400 with field errors and changes nothing; a draft answers 409; tenants 403", async (w) => {
  await novemberBilled(w);
  await meter(w.t, "SIM-A", "2026-12", 40);
  await runBilling(w.t.deps, w.zoneId, "2026-12"); // a draft of the open month
  // Friday 4 Dec 21:00 local, already Saturday 5 Dec in UTC: "today" is the 4th.
  w.clock.now = Date.parse("2026-12-05T03:00:00.000Z");
  const a = await unitBill(w, "unit_1");
  const bad: [unknown, string][] = [
    [{ method: "cheque", payment_date: "2026-12-04" }, "method"],
    [{ payment_date: "2026-12-04" }, "method"],
    [{ method: "cash" }, "payment_date"],
    [{ method: "cash", payment_date: "2026-12-05" }, "payment_date"], // after today
    [{ method: "cash", payment_date: "2026-02-30" }, "payment_date"],
    [{ method: "cash", payment_date: "04/12/2026" }, "payment_date"],
    [{ method: "cash", payment_date: "2026-12-04", note: "x".repeat(501) }, "note"],
    [{ method: "cash", payment_date: "2026-12-04", reference: "r".repeat(101) }, "reference"],
  ];
  for (const [body, field] of bad) {
    const res = await call(w.t, "POST", `/api/bills/${a.id}/payments`, {
      token: w.admin.token,
      json: body,
    });
    assert.equal(res.status, 400, JSON.stringify(body));
    const answer = await json(res);
    assert.equal(typeof answer.errors?.[field], "string", `${JSON.stringify(body)}: ${field}`);
  }
  assert.deepEqual(await unitBill(w, "unit_1"), a);
  const draft = await unitBill(w, "unit_1", "2026-12");
  const onDraft = await call(w.t, "POST", `/api/bills/${draft.id}/payments`, {
    token: w.admin.token,
    json: { method: "cash", payment_date: "2026-12-04" },
  });
  assert.equal(onDraft.status, 409);
  await onDraft.body?.cancel();
  assert.deepEqual(await unitBill(w, "unit_1", "2026-12"), draft);
  const byTenant = await call(w.t, "POST", `/api/bills/${a.id}/payments`, {
    token: w.tenants[0].token,
    json: { method: "cash", payment_date: "2026-12-04" },
  });
  assert.equal(byTenant.status, 403);
  await byTenant.body?.cancel();
  const unknown = await call(w.t, "POST", `/api/bills/999999/payments`, {
    token: w.admin.token,
    json: { method: "cash", payment_date: "2026-12-04" },
  });
  assert.equal(unknown.status, 404);
  await unknown.body?.cancel();
  assert.deepEqual(await unitBill(w, "unit_1"), a);
  for (const id of [...w.tenants.map((x) => x.id), w.owner.id]) {
    assert.deepEqual(await notes(w, id, "payment_received"), []);
  }
});

test("deleting a finalized unpaid bill restates the station bill of the period; deleting the last one removes it", async (w) => {
  await novemberBilled(w);
  const [before] = await listCustomerBills(w.t.deps.kv, w.stationId);
  assert.equal(before.total_amount, 14169);
  const b = await unitBill(w, "unit_2");
  const res = await call(w.t, "DELETE", `/api/bills/${b.id}`, { token: w.admin.token });
  assert.equal(res.status, 200, await res.clone().text());
  await res.body?.cancel();
  assert.deepEqual((await listUnitBills(w.t.deps.kv)).map((x) => x.unit_id), ["unit_1"]);
  const [after] = await listCustomerBills(w.t.deps.kv, w.stationId);
  // unit_1 alone: commission 10 % of 250.00 = 25.00; fee 1 × 25.00; tax 16 % of 50.00 = 8.00.
  assert.equal(after.id, before.id);
  assert.equal(after.is_finalized, true);
  assert.equal(after.commission_amount, 2500);
  assert.equal(after.fee_amount, 2500);
  assert.equal(after.tax_amount, 800);
  assert.equal(after.total_amount, 5800);
  assert.equal(after.energy_consumption, 200);
  assert.equal(after.calculation_details.unit_count, 1);

  const a = await unitBill(w, "unit_1");
  const last = await call(w.t, "DELETE", `/bills/${a.id}`, { token: w.admin.token });
  assert.equal(last.status, 200);
  await last.body?.cancel();
  assert.deepEqual(await listUnitBills(w.t.deps.kv), []);
  assert.deepEqual(await listCustomerBills(w.t.deps.kv), []);
});

test("a finalized bill deleted and billed again by a rerun is counted in the station bill again", async (w) => {
  await novemberBilled(w);
  const b = await unitBill(w, "unit_2");
  const res = await call(w.t, "DELETE", `/api/bills/${b.id}`, { token: w.admin.token });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  assert.equal((await listCustomerBills(w.t.deps.kv))[0].total_amount, 5800);
  // The corrected reading, billed again.
  await meter(w.t, "SIM-B", "2026-11", 300.5);
  const again = await runBilling(w.t.deps, w.zoneId, "2026-11");
  assert.equal(again.unit_bills.created, 1);
  assert.equal(again.unit_bills.skipped, 1);
  const redone = await unitBill(w, "unit_2");
  assert.equal(redone.is_finalized, true);
  assert.equal(redone.total_cost, 59334);
  // The station bill is computed from the unit bills of the period: both units again.
  const [cust] = await listCustomerBills(w.t.deps.kv);
  assert.equal(cust.calculation_details.unit_count, 2);
  assert.equal(cust.total_amount, 14169);
});

test("a paid bill or one waiting on a live SPEI reference is not deleted (409); once the reference expired it may be", async (w) => {
  await novemberBilled(w);
  const a = await unitBill(w, "unit_1");
  const paid = await call(w.t, "POST", `/api/bills/${a.id}/payments`, {
    token: w.admin.token,
    json: { method: "cash", payment_date: "2026-12-03" },
  });
  assert.equal(paid.status, 200);
  await paid.body?.cancel();
  // unit_2 waits on an SPEI reference valid until 8 Dec.
  const entry = (await getUnitBillEntry(w.t.deps.kv, (await unitBill(w, "unit_2")).id))!;
  assert.ok(
    await updateUnitBill(
      w.t.deps.kv,
      entry,
      changePayment(entry.value, "awaiting_spei_transfer", {
        at: new Date(T0).toISOString(),
        cause: "reference_created",
        by: null,
      }, {
        spei_reference: "REF-1",
        spei_clabe: "646180000000000000",
        spei_expiry_date: "2026-12-08T15:00:00.000Z",
      }),
    ),
  );
  const bills = await listUnitBills(w.t.deps.kv);
  const custs = await listCustomerBills(w.t.deps.kv);
  for (const unit of ["unit_1", "unit_2"]) {
    const id = bills.find((x) => x.unit_id === unit)!.id;
    const res = await call(w.t, "DELETE", `/api/bills/${id}`, { token: w.admin.token });
    assert.equal(res.status, 409, unit);
    const body = await json(res);
    assert.equal(typeof body.message, "string");
  }
  assert.deepEqual(await listUnitBills(w.t.deps.kv), bills);
  assert.deepEqual(await listCustomerBills(w.t.deps.kv), custs);

  w.clock.now = Date.parse("2026-12-08T16:00:00.000Z"); // the reference has expired
  const id2 = bills.find((x) => x.unit_id === "unit_2")!.id;
  const ok = await call(w.t, "DELETE", `/api/bills/${id2}`, { token: w.admin.token });
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  assert.deepEqual((await listUnitBills(w.t.deps.kv)).map((x) => x.unit_id), ["unit_1"]);
  assert.equal((await listCustomerBills(w.t.deps.kv))[0].total_amount, 5800);
});

test("a zone's stations show their payment status: other without bills, due, overdue after the sweep, paid when all are paid", async (w) => {
  const status = async () => {
    const res = await call(w.t, "GET", `/api/zones/${w.zoneId}/stations`, {
      token: w.admin.token,
    });
    assert.equal(res.status, 200);
    const body = await json(res);
    const s = body.stations.find((x: { id: number }) => x.id === w.stationId);
    assert.ok(s, JSON.stringify(body));
    return s.payment_status;
  };
  assert.equal(await status(), "other");
  await meter(w.t, "SIM-A", "2026-12", 40);
  await runBilling(w.t.deps, w.zoneId, "2026-12");
  assert.equal(await status(), "other", "drafts do not count");
  await novemberBilled(w);
  assert.equal(await status(), "due");
  w.clock.now = Date.parse("2026-12-18T16:00:00.000Z");
  await sweepOverdue(w.t.deps);
  assert.equal(await status(), "overdue");
  for (const unit of ["unit_1", "unit_2"]) {
    const res = await call(w.t, "POST", `/api/bills/${(await unitBill(w, unit)).id}/payments`, {
      token: w.admin.token,
      json: { method: "cash", payment_date: "2026-12-18" },
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
  }
  assert.equal(await status(), "paid");
});

/** CSV text as rows of fields (no quoted commas in this world). */
function csvRows(text: string): string[][] {
  return text.replace(/^\uFEFF/, "").trimEnd().split("\r\n").map((l) => l.split(","));
}

test("the CSV exports answer text/csv with a header and one row per bill, amounts in currency units", async (w) => {
  await novemberBilled(w);
  const cookie = `token=${w.admin.token}`;
  const q = `zone_id=${w.zoneId}&period=2026-11`;
  const units = await call(w.t, "GET", `/admin/units-billing/export.csv?${q}`, { cookie });
  assert.equal(units.status, 200);
  assert.match(units.headers.get("content-type") ?? "", /^text\/csv/);
  const text = await units.text();
  assert.doesNotMatch(text, /33640|59334/);
  const rows = csvRows(text);
  assert.equal(rows.length, 3, text);
  assert.equal(rows[0].length, 8);
  assert.ok(rows.slice(1).every((r) => r.length === rows[0].length), text);
  const row1 = rows.find((r) => r.includes("Depto 1"))!;
  const row2 = rows.find((r) => r.includes("Depto 2"))!;
  assert.ok(row1 && row2, text);
  assert.ok(row1.includes("Norte"));
  assert.ok(row1.includes("200.00"));
  assert.ok(row1.includes("336.40"));
  assert.ok(row1.includes("MXN"));
  assert.ok(row2.includes("300.50"));
  assert.ok(row2.includes("593.34"));

  const stations = await call(w.t, "GET", `/admin/stations-billing/export.csv?${q}`, { cookie });
  assert.equal(stations.status, 200);
  assert.match(stations.headers.get("content-type") ?? "", /^text\/csv/);
  const stext = await stations.text();
  const srows = csvRows(stext);
  assert.equal(srows.length, 2, stext);
  assert.equal(srows[0].length, 11);
  for (const v of ["Norte", "500.50", "72.15", "50.00", "19.54", "141.69", "MXN"]) {
    assert.ok(srows[1].includes(v), `${v} in ${stext}`);
  }
  assert.doesNotMatch(stext, /14169|7215/);

  // Another period has only the header; a tenant is sent away.
  const empty = await call(
    w.t,
    "GET",
    `/admin/units-billing/export.csv?zone_id=${w.zoneId}&period=2026-10`,
    {
      cookie,
    },
  );
  assert.equal(csvRows(await empty.text()).length, 1);
  const tenant = await call(w.t, "GET", `/admin/units-billing/export.csv?${q}`, {
    cookie: `token=${w.tenants[0].token}`,
  });
  assert.equal(tenant.status, 302);
  await tenant.body?.cancel();
});

test("the monthly and bimonthly unit and station billing paths of the spec answer 200 for an admin and offer only zones of their billing type", async (w) => {
  await novemberBilled(w);
  await createZone(
    w.t.deps.kv,
    { ...defaultZone("Bimestral Sur"), billing_type: "bimonthly" },
    T0,
  );
  const cookie = `token=${w.admin.token}`;
  for (
    const path of [
      "/admin/billing",
      "/admin/bimester-billing",
      "/admin/customer-billing",
      "/admin/bimester-customer-billing",
    ]
  ) {
    const res = await call(w.t, "GET", path, { cookie });
    assert.equal(res.status, 200, `${path}: ${res.status} ${res.headers.get("location") ?? ""}`);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    // Each path offers only the zones of its billing type.
    const html = await res.text();
    const bimonthly = path.includes("bimester");
    assert.equal(html.includes("Bimestral Sur"), bimonthly, `${path} offers Bimestral Sur`);
    assert.equal(html.includes("Tiered"), !bimonthly, `${path} offers Tiered`);
    const tenant = await call(w.t, "GET", path, { cookie: `token=${w.tenants[0].token}` });
    assert.equal(tenant.status, 302, path);
    await tenant.body?.cancel();
  }
  // The monthly unit page lists the monthly zone's bills of November.
  const page = await call(
    w.t,
    "GET",
    `/admin/billing?zone_id=${w.zoneId}&year=2026&period=2026-11`,
    { cookie },
  );
  assert.equal(page.status, 200);
  const html = await page.text();
  assert.match(html, /Depto 1/);
  assert.match(html, /336\.40/);
});
