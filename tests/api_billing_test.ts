/**
 * The bills API: POST /unified-billing/process (with and without /api), the bill lists as
 * each role may see them, and the deletes.
 */
import assert from "node:assert/strict";
import { account, call } from "./_helpers.ts";
import { billingWorld, meter } from "./_billing_world.ts";
import { listCustomerBills, listUnitBills, setUnitBillFinalized } from "../db/bills.ts";
import { listNotifications } from "../db/notifications.ts";

Deno.test("POST /api/unified-billing/process bills a zone and a rerun updates the same bills", async () => {
  const w = await billingWorld();
  try {
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
    assert.equal(second.total_bills_created, 0);
    assert.equal(second.total_bills_updated, 3);
    assert.equal(second.bills_updated, 2);
    assert.equal((await listUnitBills(w.t.deps.kv)).length, 2);
    assert.equal((await listCustomerBills(w.t.deps.kv)).length, 1);
    const notes = await listNotifications(w.t.deps.kv, w.tenants[1], "all", 50);
    assert.equal(notes.filter((n) => n.type === "bill_created").length, 1);
  } finally {
    w.t.close();
  }
});

Deno.test("POST /api/unified-billing/process answers 400/404 with a message for bad input, writing nothing", async () => {
  const w = await billingWorld();
  try {
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
      body: "{nope",
      headers: { "content-type": "application/json" },
    });
    assert.equal(notJson.status, 400);
    await notJson.body?.cancel();
    const unknown = await call(w.t, "POST", "/api/unified-billing/process", {
      token: w.admin,
      json: { period: "2026-01", zone_id: 4242 },
    });
    assert.equal((await unknown.json()).message, "Zone not found");
    assert.deepEqual(await listUnitBills(w.t.deps.kv), []);
  } finally {
    w.t.close();
  }
});

Deno.test("GET /api/bills shows admin every bill and a tenant only its unit's bills", async () => {
  const w = await billingWorld();
  try {
    await meter(w.t, "SIM-A", "2026-01", 200);
    await meter(w.t, "SIM-B", "2026-01", 300.5);
    await call(w.t, "POST", "/api/unified-billing/process", {
      token: w.admin,
      json: { period: "2026-01", zone_id: w.zoneId },
    });
    const q = `station_id=${w.stationId}&billing_month=2026-01`;
    const all = await (await call(w.t, "GET", `/api/bills?${q}`, { token: w.admin })).json();
    assert.equal(all.length, 2);
    const one = await (await call(w.t, "GET", `/api/bills?${q}&unit_id=unit_2`, {
      token: w.admin,
    })).json();
    assert.deepEqual(one.map((b: { unit_id: string }) => b.unit_id), ["unit_2"]);
    const mine = await (await call(w.t, "GET", `/api/bills?${q}`, { token: w.tenantTokens[0] }))
      .json();
    assert.deepEqual(mine.map((b: { unit_id: string }) => b.unit_id), ["unit_1"]);
    const bimester = await (await call(w.t, "GET", "/api/bimester-bills", { token: w.admin }))
      .json();
    assert.deepEqual(bimester, []);
    const customer = await account(w.t, "customer");
    const none = await (await call(w.t, "GET", `/api/customer-bills?${q}`, {
      token: customer.token,
    })).json();
    assert.deepEqual(none, []);
    const stations = await (await call(w.t, "GET", `/api/customer-bills?${q}`, { token: w.admin }))
      .json();
    assert.equal(stations.length, 1);
    assert.equal(stations[0].total_amount, 14169);
    for (const bad of ["station_id=abc", "billing_month=2026-01-02", "billing_period=2026-01"]) {
      const res = await call(w.t, "GET", `/api/bills?${bad}`, { token: w.admin });
      assert.equal(res.status, 400, bad);
      await res.body?.cancel();
    }
  } finally {
    w.t.close();
  }
});

Deno.test("DELETE /api/bills/{id} removes a draft and refuses a finalized bill", async () => {
  const w = await billingWorld();
  try {
    await meter(w.t, "SIM-A", "2026-01", 200);
    await call(w.t, "POST", "/api/unified-billing/process", {
      token: w.admin,
      json: { period: "2026-01", zone_id: w.zoneId },
    });
    const [a, b] = await listUnitBills(w.t.deps.kv);
    await setUnitBillFinalized(w.t.deps.kv, a.id, true);
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
  } finally {
    w.t.close();
  }
});
