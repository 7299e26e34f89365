/** The demo data: every role can be tried at once, and running it again adds nothing. */
import assert from "node:assert/strict";
import { account, testApp } from "./_helpers.ts";
import { seedDemo } from "../services/demo.ts";
import { listDevices } from "../db/devices.ts";
import { findUserByEmail, listUsers } from "../db/users.ts";
import { listAccessCodes } from "../db/access_codes.ts";
import { getZone } from "../db/zones.ts";
import { listUnitBills } from "../db/bills.ts";
import { runBilling } from "../services/billing/mod.ts";
import { DEMO_ZONE_NAME } from "../services/demo_devices.ts";

Deno.test("seedDemo() makes a customer's station with three metered units and two months of readings, once", async () => {
  const t = await testApp();
  try {
    await account(t, "admin");
    const first = await seedDemo(t.deps);
    assert.equal(first.meters.length, 3);
    const devices = await listDevices(t.deps.kv);
    const station = devices.find((d) => d.type === "station")!;
    const sensors = devices.filter((d) => d.type === "sensor");
    assert.equal(sensors.length, 3);
    const customer = await findUserByEmail(t.deps.kv, "cliente@demo.mx");
    const tenant = await findUserByEmail(t.deps.kv, "inquilino@demo.mx");
    assert.equal(station.customer_id, customer!.id);
    assert.equal(sensors.filter((s) => s.tenant_id === tenant!.id).length, 1);
    const now = t.deps.now();
    for (const s of sensors) {
      const kwh = await t.deps.telemetry.counterDelta(
        s.serial_number,
        "total_energy_kwh",
        now - 86_400_000,
        now,
      );
      assert.ok(kwh > 1 && kwh < 200, `${s.serial_number} used ${kwh} kWh in a day`);
    }
    const zone = await getZone(t.deps.kv, station.zone_id!);
    assert.equal(zone?.name, DEMO_ZONE_NAME);
    assert.deepEqual([zone!.price_low, zone!.price_middle, zone!.price_high], [1.015, 1.239, 3.62]);
    // The demo's readings are billable at once: a dry run bills its three units.
    const local = new Date(now + t.deps.config.utcOffsetMinutes * 60_000);
    const month = local.toISOString().slice(0, 7);
    const run = await runBilling(t.deps, zone!.id, month, { dryRun: true });
    assert.equal(run.failures.length, 0, JSON.stringify(run.failures));
    assert.equal(run.stations_processed, 1);
    assert.equal(run.bills_created, 3);
    // The previous month is covered too: billing a closed month gives amounts to pay.
    const previous = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - 1, 1));
    const closed = await runBilling(t.deps, zone!.id, previous.toISOString().slice(0, 7));
    assert.deepEqual([closed.bills_created, closed.bills_estimated], [3, 0]);
    const bills = await listUnitBills(t.deps.kv);
    assert.equal(bills.length, 3);
    for (const bill of bills) assert.ok(bill.total_cost > 0, `${bill.total_cost} cents`);

    const codes = (await listAccessCodes(t.deps.kv)).filter((c) => !c.is_used);
    assert.ok(codes.some((c) => c.role === "user") && codes.some((c) => c.role === "customer"));

    const again = await seedDemo(t.deps);
    assert.deepEqual(again.meters, first.meters);
    assert.equal((await listDevices(t.deps.kv)).length, devices.length);
    assert.equal((await listUsers(t.deps.kv)).length, 3);
    assert.equal((await listAccessCodes(t.deps.kv)).length, codes.length);
  } finally {
    t.close();
  }
});
