/**
 * A billing run over many stations, whose bills are committed several stations at a time:
 * every station is billed as on its own (exact energy, one customer bill each, unique ids),
 * progress is reported once per station, reruns update and finalized bills stay.
 */
import { testsWith } from "./_helpers.ts";
import assert from "node:assert/strict";
import { type BillingWorld, billingWorld, finalizeOne, meter } from "./_billing_world.ts";
import { createDevice } from "../db/devices.ts";
import { sensorTopicPrefix, stationTopicPrefix, type StoredDevice } from "../core/devices.ts";
import { listCustomerBills, listUnitBills } from "../db/bills.ts";
import { type BillingProgress, runBilling } from "../services/billing/mod.ts";

const test = testsWith(billingWorld, (w) => w.t.close());

const STATIONS = 30;

/** Adds a station with two metered units to the zone; answers the station id. */
async function addStation(kv: Deno.Kv, zoneId: number, n: number): Promise<number> {
  const at = new Date().toISOString();
  const serial = `GST-${n}`;
  const st = await createDevice(kv, null, (id): StoredDevice => ({
    id,
    type: "station",
    name: `Estación ${n}`,
    serial_number: serial,
    station_id: `gst_${n}`,
    parent_id: null,
    zone_id: zoneId,
    location: "{}",
    customer_id: null,
    tenant_id: null,
    config: {
      mqtt: { username: `mq-${serial}`, topic_prefix: stationTopicPrefix(serial) },
      station: {
        ssrs: [{ id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 }],
        units: [1, 2].map((u) => ({ id: `unit_${u}`, name: `Depto ${u}`, ssr_id: "ssr_1" })),
      },
    },
    created_at: at,
    updated_at: at,
    mqtt_password_hash: "x",
  } as unknown as StoredDevice));
  assert.ok(st.ok);
  for (const u of [1, 2]) {
    const s = `GSE-${n}-${u}`;
    const se = await createDevice(kv, st.device.id, (id, parent): StoredDevice => ({
      id,
      type: "sensor",
      name: s,
      serial_number: s,
      station_id: `${parent!.station_id}_${u}`,
      parent_id: parent!.id,
      zone_id: null,
      location: "",
      customer_id: null,
      tenant_id: null,
      config: {
        mqtt: { username: `mq-${s}`, topic_prefix: sensorTopicPrefix(s) },
        sensor: { unit_id: `unit_${u}`, tenant_id: null, ip_address: "10.0.0.9" },
      },
      created_at: at,
      updated_at: at,
      mqtt_password_hash: "x",
    } as unknown as StoredDevice));
    assert.ok(se.ok);
  }
  return st.device.id;
}

/** The world's station plus more, each unit metered; answers `${stationId}/${unit}` → kWh. */
async function manyStations(w: BillingWorld): Promise<Map<string, number>> {
  const kwh = new Map<string, number>();
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  kwh.set(`${w.stationId}/unit_1`, 200).set(`${w.stationId}/unit_2`, 300.5);
  for (let n = 1; n < STATIONS; n++) {
    const id = await addStation(w.t.deps.kv, w.zoneId, n);
    for (const u of [1, 2]) {
      const energy = 10 * n + u + 0.25;
      await meter(w.t, `GSE-${n}-${u}`, "2026-01", energy);
      kwh.set(`${id}/unit_${u}`, energy);
    }
  }
  return kwh;
}

test("runBilling() over many stations bills each one exactly, reports each once, and reruns update", async (w) => {
  const kwh = await manyStations(w);
  w.t.deps.now = () => Date.parse("2026-01-20T18:00:00Z"); // January open: drafts
  const progress: BillingProgress[] = [];
  const res = await runBilling(w.t.deps, w.zoneId, "2026-01", {
    onProgress: (p) => progress.push(p),
  });
  assert.deepEqual(res.failures, []);
  assert.equal(res.stations_processed, STATIONS);
  assert.equal(res.bills_created, 2 * STATIONS);
  assert.equal(res.customer_bills_created, STATIONS);
  assert.equal(res.bills_estimated, 0);
  assert.deepEqual(
    progress.map((p) => p.index),
    Array.from({ length: STATIONS }, (_, i) => i + 1),
  );
  assert.equal(new Set(progress.map((p) => p.station_id)).size, STATIONS);
  assert.ok(progress.every((p) => p.outcome === "ok" && p.total === STATIONS));

  const bills = await listUnitBills(w.t.deps.kv);
  assert.equal(bills.length, 2 * STATIONS);
  assert.equal(new Set(bills.map((b) => b.id)).size, bills.length, "unit bill ids are unique");
  for (const b of bills) {
    assert.equal(b.energy_consumption, kwh.get(`${b.station_id}/${b.unit_id}`), b.sensor_serial!);
  }
  const customers = await listCustomerBills(w.t.deps.kv);
  assert.equal(customers.length, STATIONS);
  assert.equal(new Set(customers.map((c) => c.id)).size, STATIONS);
  for (const c of customers) {
    const units = bills.filter((b) => b.station_id === c.station_id);
    const sum = units.reduce((s, b) => s + b.energy_consumption, 0);
    assert.equal(c.energy_consumption, Math.round(sum * 1000) / 1000);
  }

  // A finalized bill stays as it was; the others follow the new readings.
  w.t.deps.now = () => Date.parse("2026-02-02T18:00:00Z"); // January has ended
  await finalizeOne(w, bills.find((b) => b.sensor_serial === "GSE-17-2")!.id, 12);
  const kept = (await listUnitBills(w.t.deps.kv)).find((b) => b.sensor_serial === "GSE-17-2")!;
  await meter(w.t, "GSE-17-2", "2026-01", 999);
  await meter(w.t, "GSE-3-1", "2026-01", 77);
  const dry = await runBilling(w.t.deps, w.zoneId, "2026-01", { dryRun: true });
  const again = await runBilling(w.t.deps, w.zoneId, "2026-01");
  for (const r of [dry, again]) {
    assert.equal(r.bills_created, 0);
    assert.equal(r.bills_updated, 2 * STATIONS - 1);
    assert.equal(r.bills_skipped, 1);
    assert.equal(r.customer_bills_updated, STATIONS);
  }
  const after = await listUnitBills(w.t.deps.kv);
  assert.deepEqual(after.map((b) => b.id), bills.map((b) => b.id));
  assert.deepEqual(after.find((b) => b.id === kept.id), kept);
  assert.equal(after.find((b) => b.sensor_serial === "GSE-3-1")!.energy_consumption, 77);
});

test("two runs of the same period at once create each bill once (the later commits update)", async (w) => {
  const kwh = await manyStations(w);
  w.t.deps.now = () => Date.parse("2026-01-20T18:00:00Z"); // January open: drafts update
  const [a, b] = await Promise.all([
    runBilling(w.t.deps, w.zoneId, "2026-01"),
    runBilling(w.t.deps, w.zoneId, "2026-01"),
  ]);
  assert.deepEqual([...a.failures, ...b.failures], []);
  assert.equal(a.bills_created + b.bills_created, 2 * STATIONS, "each unit bill created once");
  assert.equal(a.bills_created + a.bills_updated, 2 * STATIONS);
  assert.equal(b.bills_created + b.bills_updated, 2 * STATIONS);
  assert.equal(a.customer_bills_created + b.customer_bills_created, STATIONS);
  const bills = await listUnitBills(w.t.deps.kv);
  assert.equal(bills.length, 2 * STATIONS);
  assert.equal(new Set(bills.map((x) => x.id)).size, bills.length);
  for (const x of bills) {
    assert.equal(x.energy_consumption, kwh.get(`${x.station_id}/${x.unit_id}`));
  }
  assert.equal((await listCustomerBills(w.t.deps.kv)).length, STATIONS);
});
