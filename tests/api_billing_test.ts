/**
 * The bills API: POST /unified-billing/process (with and without /api), the bill lists as
 * each role may see them, and the deletes.
 */
import assert from "node:assert/strict";
import { account, call, testsWith } from "./_helpers.ts";
import { billingWorld, meter, payBill, stationCounts, unitCounts } from "./_billing_world.ts";
import { listCustomerBills, listUnitBills } from "../db/bills.ts";
import { listNotifications } from "../db/notifications.ts";

const test = testsWith(billingWorld, (w) => w.t.close());

test("POST /api/unified-billing/process bills a zone and a rerun updates the same bills", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  const body = { period: "2026-01", zone_id: w.zoneId };
  const res = await call(w.t, "POST", "/api/unified-billing/process", {
    token: w.admin,
    json: body,
  });
  assert.equal(res.status, 200);
  const first = await res.json();
  assert.equal(first.total_bills_created, 3);
  assert.equal(first.total_bills_updated, 0);
  assert.equal(first.stations_processed, 1);
  assert.equal(first.bills_created, 2);
  assert.equal(first.bills_updated, 0);
  const again = await call(w.t, "POST", "/unified-billing/process", {
    token: w.admin,
    json: body,
  });
  assert.equal(again.status, 200);
  const second = await again.json();
  // January has ended: the first run finalized, the second leaves the bills alone.
  assert.equal(first.finalized, true);
  assert.equal(second.total_bills_created, 0);
  assert.equal(second.total_bills_updated, 0);
  assert.deepEqual(second.unit_bills, unitCounts({ skipped: 2 }));
  assert.deepEqual(second.station_bills, stationCounts({ skipped: 1 }));
  assert.equal((await listUnitBills(w.t.deps.kv)).length, 2);
  assert.equal((await listCustomerBills(w.t.deps.kv)).length, 1);
  const notes = await listNotifications(w.t.deps.kv, w.tenants[1], "all", 50);
  assert.equal(notes.filter((n) => n.type === "bill_created").length, 1);
});

test("POST /api/unified-billing/process answers 400/404 with a message for bad input, writing nothing", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  const cases: [unknown, number][] = [
    [{ period: "2026-1", zone_id: w.zoneId }, 400],
    [{ period: "2026-02-03", zone_id: w.zoneId }, 400],
    [{ zone_id: w.zoneId }, 400],
    [{ period: "2026-01", zone_id: "x" }, 400],
    [{ period: "2026-01", zone_id: 1.5 }, 400],
    [{ period: "2026-01" }, 400],
    [{ period: "2026-01", zone_id: 4242 }, 404],
    [[1, 2], 400],
  ];
  for (const [json, status] of cases) {
    const res = await call(w.t, "POST", "/api/unified-billing/process", { token: w.admin, json });
    assert.equal(res.status, status, JSON.stringify(json));
    const body = await res.json();
    assert.equal(typeof body.message, "string");
    assert.ok(body.message.length > 0);
  }
  const notJson = await call(w.t, "POST", "/api/unified-billing/process", {
    token: w.admin,
    jsonText: "{nope",
  });
  assert.equal(notJson.status, 400);
  await notJson.body?.cancel();
  const unknown = await call(w.t, "POST", "/api/unified-billing/process", {
    token: w.admin,
    json: { period: "2026-01", zone_id: 4242 },
  });
  assert.equal((await unknown.json()).message, "Zone not found");
  assert.deepEqual(await listUnitBills(w.t.deps.kv), []);
});

test("GET /api/bills shows admin every bill and a tenant only its unit's bills", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  await call(w.t, "POST", "/api/unified-billing/process", {
    token: w.admin,
    json: { period: "2026-01", zone_id: w.zoneId },
  });
  const q = `station_id=${w.stationId}&billing_month=2026-01`;
  const bills = async (path: string, token: string) =>
    (await (await call(w.t, "GET", path, { token })).json()).bills;
  const all = await bills(`/api/bills?${q}`, w.admin);
  assert.equal(all.length, 2);
  // Money in currency units: 336.40 MXN, not 33640.
  assert.equal(all.find((b: { unit_id: string }) => b.unit_id === "unit_1").total_cost, 336.4);
  const one = await bills(`/api/bills?${q}&unit_id=unit_2`, w.admin);
  assert.deepEqual(one.map((b: { unit_id: string }) => b.unit_id), ["unit_2"]);
  const mine = await bills(`/api/bills?${q}`, w.tenantTokens[0]);
  assert.deepEqual(mine.map((b: { unit_id: string }) => b.unit_id), ["unit_1"]);
  assert.deepEqual(await bills("/api/bimester-bills", w.admin), []);
  const customer = await account(w.t, "customer");
  assert.deepEqual(await bills(`/api/customer-bills?${q}`, customer.token), []);
  const stations = await bills(`/api/customer-bills?${q}`, w.admin);
  assert.equal(stations.length, 1);
  assert.equal(stations[0].total_amount, 141.69);
  for (const bad of ["station_id=abc", "billing_month=2026-01-02", "billing_period=2026-01"]) {
    const res = await call(w.t, "GET", `/api/bills?${bad}`, { token: w.admin });
    assert.equal(res.status, 400, bad);
    await res.body?.cancel();
  }
});

test("DELETE /api/bills/{id} removes an unpaid bill and refuses a paid one", async (w) => {
  await meter(w.t, "SIM-A", "2026-01", 200);
  await call(w.t, "POST", "/api/unified-billing/process", {
    token: w.admin,
    json: { period: "2026-01", zone_id: w.zoneId },
  });
  const [a, b] = await listUnitBills(w.t.deps.kv);
  await payBill(w, a.id);
  const refused = await call(w.t, "DELETE", `/api/bills/${a.id}`, { token: w.admin });
  assert.equal(refused.status, 409);
  await refused.body?.cancel();
  const ok = await call(w.t, "DELETE", `/bills/${b.id}`, { token: w.admin });
  assert.equal(ok.status, 200);
  await ok.body?.cancel();
  const gone = await call(w.t, "DELETE", `/api/bills/${b.id}`, { token: w.admin });
  assert.equal(gone.status, 404);
  await gone.body?.cancel();
  assert.deepEqual((await listUnitBills(w.t.deps.kv)).map((x) => x.id), [a.id]);
  const [cb] = await listCustomerBills(w.t.deps.kv);
  const del = await call(w.t, "DELETE", `/api/customer-bills/${cb.id}`, { token: w.admin });
  assert.equal(del.status, 200);
  await del.body?.cancel();
  assert.deepEqual(await listCustomerBills(w.t.deps.kv), []);
});
