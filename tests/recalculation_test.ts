/**
 * Recalculation: PUT /api/bills/{id} and /api/bimester-bills/{id} with the four methods, the
 * refusals (reason, method, manual input, period not past, unknown bill, non-admin) and the
 * station bill updated with the unit bill.
 */
import assert from "node:assert/strict";
import { call, testsWith } from "./_helpers.ts";
import { billingWorld, processPeriod, unitBillOf } from "./_billing_world.ts";
import { listCustomerBills, listUnitBills, type StoredUnitBill } from "../db/bills.ts";
import type { BillingWorld } from "./_billing_world.ts";

const test = testsWith(billingWorld, (w) => w.t.close());

const bill = processPeriod;

function put(w: BillingWorld, id: number, json: unknown, token = w.admin, kind = "bills") {
  return call(w.t, "PUT", `/api/${kind}/${id}`, { token, json });
}

test("manual_input and extended range recalculate the unit bill and the station bill", async (w) => {
  await bill(w, "2026-01", { "SIM-A": 200, "SIM-B": 300.5 });
  const before = await unitBillOf(w, "2026-01", "unit_1");
  const res = await put(w, before.id, {
    override_reason: "Meter replaced",
    recalculation_method: "manual_input",
    energy_consumption: " 250,0 kWh",
  });
  assert.equal(res.status, 200, await res.clone().text());
  const body = await res.json();
  assert.equal(body.id, before.id);
  const after = await unitBillOf(w, "2026-01", "unit_1");
  // The answer is the stored bill with money in currency units.
  assert.partialDeepStrictEqual(body, {
    updated_at: after.updated_at,
    total_cost: 452.4,
    energy_cost: 350,
  });
  assert.partialDeepStrictEqual(after, {
    energy_consumption: 250,
    energy_cost: 35000,
    base_tariff: 4000,
    tax_cost: 6240,
    total_cost: 45240,
    is_finalized: true,
    is_estimation: false,
    recalculation_method: "manual_input",
    override_reason: "Meter replaced",
    created_at: before.created_at,
  });
  assert.equal(after.author, String(w.adminUser.id), "the author by account id, not e-mail");
  assert.ok(after.created_by);
  const [station] = await listCustomerBills(w.t.deps.kv);
  assert.equal(station.total_amount, 15329);
  assert.equal(station.energy_consumption, 550.5);
  // A rerun leaves the recalculated (finalized) bill alone and keeps the station consistent.
  await bill(w, "2026-01", {});
  assert.equal((await unitBillOf(w, "2026-01", "unit_1")).total_cost, 45240);
  assert.equal((await listCustomerBills(w.t.deps.kv))[0].total_amount, 15329);
  // Extended range: readings from 1 h before January to its end, 200 kWh over 745 h,
  // scaled to January's 744 h.
  const res2 = await put(w, before.id, {
    override_reason: "Extended",
    recalculation_method: "method_1_extended_range",
  });
  assert.equal(res2.status, 200, await res2.clone().text());
  const ext = await res2.json() as StoredUnitBill;
  assert.equal(ext.energy_consumption, Math.round(200 * 744 / 745 * 1000) / 1000);
  assert.equal(ext.recalculation_method, "method_1_extended_range");
  assert.equal(ext.is_estimation, true);
  const [st] = await listCustomerBills(w.t.deps.kv);
  assert.equal(st.energy_consumption, Math.round((ext.energy_consumption + 300.5) * 1000) / 1000);
});

test("historical and zone average methods compute the energy", async (w) => {
  await bill(w, "2025-10", { "SIM-A": 100 });
  await bill(w, "2025-11", { "SIM-A": 200 });
  await bill(w, "2025-12", { "SIM-A": 300 });
  await bill(w, "2026-01", { "SIM-A": 200, "SIM-B": 300.5 });
  const id = (await unitBillOf(w, "2026-01", "unit_1")).id;
  const run = async (method: string) => {
    const res = await put(w, id, { override_reason: "check", recalculation_method: method });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as StoredUnitBill;
  };
  const hist = await run("method_2_historical_average");
  assert.equal(hist.energy_consumption, 200);
  assert.equal(hist.is_estimation, true);
  const zone = await run("method_3_zone_average");
  assert.equal(zone.energy_consumption, 300.5);
  assert.equal(zone.total_cost, (47150 + 4000 + 8184) / 100);
});

test("recalculation refuses bad input, current and future periods, unknown bills and non-admins", async (w) => {
  await bill(w, "2026-01", { "SIM-A": 200, "SIM-B": 300.5 });
  const id = (await unitBillOf(w, "2026-01", "unit_1")).id;

  const cases: [unknown, number, string][] = [
    [{ recalculation_method: "manual_input", energy_consumption: "5" }, 400, "override_reason"],
    [
      { override_reason: "  ", recalculation_method: "method_3_zone_average" },
      400,
      "override_reason",
    ],
    [{ override_reason: "x" }, 400, "recalculation_method"],
    [{ override_reason: "x", recalculation_method: "guess" }, 400, "recalculation_method"],
    [{ override_reason: "x", recalculation_method: "manual_input" }, 400, "energy_consumption"],
    [
      { override_reason: "x", recalculation_method: "manual_input", energy_consumption: "abc" },
      400,
      "energy_consumption",
    ],
    [
      { override_reason: "x", recalculation_method: "manual_input", energy_consumption: "0" },
      400,
      "energy_consumption",
    ],
    [
      { override_reason: "x", recalculation_method: "manual_input", energy_consumption: "10001" },
      400,
      "energy_consumption",
    ],
  ];
  for (const [json, status, field] of cases) {
    const res = await put(w, id, json);
    assert.equal(res.status, status, JSON.stringify(json));
    const body = await res.json();
    assert.equal(typeof body.errors[field], "string", JSON.stringify(json));
    assert.ok(!body.message.includes("."), body.message);
  }
  const tooHigh = await (await put(w, id, {
    override_reason: "x",
    recalculation_method: "manual_input",
    energy_consumption: "10001",
  })).json();
  assert.equal(tooHigh.message, "Consumption seems too high (max 10,000 kWh)");
  const ok = {
    override_reason: "x",
    recalculation_method: "manual_input",
    energy_consumption: 5,
  };
  for (const [json, status] of [[[1], 400], ["text", 400], [null, 400]] as [unknown, number][]) {
    const res = await put(w, id, json);
    assert.equal(res.status, status, JSON.stringify(json));
    await res.body?.cancel();
  }
  const local = new Date(w.t.deps.now() + w.t.deps.config.utcOffsetMinutes * 60_000);
  const thisMonth = `${local.getUTCFullYear()}-${String(local.getUTCMonth() + 1).padStart(2, "0")}`;
  await bill(w, thisMonth, {});
  const running = await put(w, (await unitBillOf(w, thisMonth, "unit_1")).id, ok);
  assert.equal(running.status, 400);
  assert.equal((await running.json()).message, "Only a past period can be recalculated");
  for (
    const [path, status] of [[`/api/bills/999999`, 404], [`/api/bills/abc`, 404], [
      `/api/bimester-bills/${id}`,
      404,
    ]] as const
  ) {
    const res = await call(w.t, "PUT", path, { token: w.admin, json: ok });
    assert.equal(res.status, status, path);
    await res.body?.cancel();
  }
  const tenant = await put(w, id, ok, w.tenantTokens[0]);
  assert.equal(tenant.status, 403);
  await tenant.body?.cancel();
  const after = (await listUnitBills(w.t.deps.kv)).filter((b) => b.recalculation_method !== null);
  assert.deepEqual(after, []);
});
