import assert from "node:assert/strict";
import {
  createDevice,
  deleteDevice,
  findByMqttUsername,
  findBySerial,
  getDevice,
  sensorIdsOf,
  sensorIdsOfTenant,
  stationIdsOfCustomer,
  unitBindings,
  updateDevice,
} from "./devices.ts";
import { deviceCounts, listStationSummaries, zoneStationCounts } from "./device_lists.ts";
import { withKv } from "../tests/_kv.ts";
import { storedSensor as sensor, storedStation as station } from "../tests/_devices.ts";

const newStation = async (kv: Deno.Kv, serial: string) => {
  const res = await createDevice(kv, null, (id) => station(id, serial));
  assert.ok(res.ok);
  return res.device.id;
};

const newSensor = (kv: Deno.Kv, parent: number, serial: string, unit: string) =>
  createDevice(kv, parent, (id) => sensor(id, parent, serial, unit));

Deno.test("createDevice() shares one id sequence and indexes serial, MQTT user and parent", () =>
  withKv(async (kv) => {
    const s = await newStation(kv, "ST-1");
    const m = await newSensor(kv, s, "Shelly-A", "unit_1");
    assert.ok(m.ok);
    assert.equal(m.device.id, s + 1);
    assert.equal((await findBySerial(kv, "shelly-a"))?.id, m.device.id);
    assert.equal((await findBySerial(kv, "st-1"))?.id, s);
    assert.equal((await findByMqttUsername(kv, "u-Shelly-A"))?.id, m.device.id);
    assert.deepEqual(await sensorIdsOf(kv, s), [m.device.id]);
    assert.deepEqual([...(await unitBindings(kv, s))], [["unit_1", m.device.id]]);
  }));

Deno.test("serial numbers (any case), MQTT usernames and units are taken once", () =>
  withKv(async (kv) => {
    const s = await newStation(kv, "ST-1");
    assert.ok((await newSensor(kv, s, "A", "unit_1")).ok);
    const sameSerial = await createDevice(kv, null, (id) =>
      station(id, "st-1", {
        config: { mqtt: { username: "other", topic_prefix: "" } },
      }));
    assert.deepEqual(sameSerial, { ok: false, reason: "taken", field: "serial_number" });
    const sameUnit = await createDevice(kv, s, (id) => ({
      ...sensor(id, s, "B", "unit_1"),
    }));
    assert.deepEqual(sameUnit, { ok: false, reason: "taken", field: "unit_id" });
    const sameUser = await createDevice(
      kv,
      null,
      (id) => station(id, "ST-2", { config: { mqtt: { username: "u-A", topic_prefix: "" } } }),
    );
    assert.deepEqual(sameUser, { ok: false, reason: "taken", field: "mqtt_username" });
  }));

Deno.test("of concurrent creations with one serial number exactly one succeeds", () =>
  withKv(async (kv) => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        createDevice(kv, null, (id) =>
          station(id, "SAME", {
            config: { mqtt: { username: `user-${i}`, topic_prefix: "" } },
          }))),
    );
    assert.equal(results.filter((r) => r.ok).length, 1);
    assert.ok(results.every((r) => r.ok || r.reason === "taken"));
  }));

Deno.test("updateDevice() moves index entries and frees the old ones", () =>
  withKv(async (kv) => {
    const s = await newStation(kv, "ST-1");
    const m = await newSensor(kv, s, "A", "unit_1");
    assert.ok(m.ok);
    const res = await updateDevice(kv, m.device.id, (cur) => ({
      ...cur,
      serial_number: "A2",
      tenant_id: 42,
      config: { ...cur.config, sensor: { ...cur.config.sensor!, unit_id: "unit_2" } },
    }));
    assert.ok(res.ok);
    assert.equal(await findBySerial(kv, "A"), null);
    assert.equal((await findBySerial(kv, "a2"))?.id, m.device.id);
    assert.deepEqual([...(await unitBindings(kv, s))], [["unit_2", m.device.id]]);
    assert.deepEqual(await sensorIdsOfTenant(kv, 42), [m.device.id]);
    assert.ok((await newSensor(kv, s, "C", "unit_1")).ok, "unit_1 is free again");
    const cust = await updateDevice(kv, s, (cur) => ({ ...cur, customer_id: 7 }));
    assert.ok(cust.ok);
    assert.deepEqual(await stationIdsOfCustomer(kv, 7), [s]);
    await updateDevice(kv, s, (cur) => ({ ...cur, customer_id: null }));
    assert.deepEqual(await stationIdsOfCustomer(kv, 7), []);
    assert.deepEqual(await updateDevice(kv, 999, (cur) => cur), { ok: false, reason: "not_found" });
  }));

Deno.test("a station with sensors is not deleted; deleting clears every index", () =>
  withKv(async (kv) => {
    const s = await newStation(kv, "ST-1");
    const m = await newSensor(kv, s, "A", "unit_1");
    assert.ok(m.ok);
    assert.deepEqual(await deleteDevice(kv, s), {
      ok: false,
      reason: "refused",
      key: "has_sensors",
    });
    assert.ok((await deleteDevice(kv, m.device.id)).ok);
    assert.ok((await deleteDevice(kv, s)).ok);
    assert.equal(await getDevice(kv, s), null);
    const left: Deno.KvKey[] = [];
    for await (const e of kv.list({ prefix: [] })) {
      // Sequences, the fleet's counters (back at zero) and the revision stay.
      const kept = ["seq", "device_counts", "devices_revision"];
      if (!kept.includes(e.key[0] as string)) left.push(e.key);
    }
    assert.deepEqual(left, []);
    assert.deepEqual(await deviceCounts(kv), { stations: 0, sensors: 0, units: 0 });
    assert.deepEqual(await newSensor(kv, s, "B", "unit_1"), {
      ok: false,
      reason: "parent_missing",
    });
  }));

Deno.test("a sensor written while its station is deleted never outlives the station", () =>
  withKv(async (kv) => {
    for (let round = 0; round < 10; round++) {
      const s = await newStation(kv, `ST-${round}`);
      const [created, deleted] = await Promise.all([
        newSensor(kv, s, `S-${round}`, "unit_1"),
        deleteDevice(kv, s),
      ]);
      const stationLeft = await getDevice(kv, s);
      if (created.ok) {
        assert.ok(stationLeft, "a created sensor keeps its station");
        assert.equal(deleted.ok, false);
        assert.ok((await deleteDevice(kv, created.device.id)).ok);
        assert.ok((await deleteDevice(kv, s)).ok);
      } else {
        assert.equal(stationLeft, null);
        assert.ok(deleted.ok);
      }
    }
  }));

Deno.test("device counts and station rows stay exact under concurrent writes and deletes", () =>
  withKv(async (kv) => {
    // 30 stations written at once, each with 2 units; then sensors on 10 of them at once.
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) => newStation(kv, `C-${i}`)),
    );
    assert.deepEqual(await deviceCounts(kv), { stations: 30, sensors: 0, units: 60 });
    const sensors = await Promise.all(
      ids.slice(0, 10).flatMap((s, i) => [
        newSensor(kv, s, `CS-${i}-a`, "unit_1"),
        newSensor(kv, s, `CS-${i}-b`, "unit_2"),
      ]),
    );
    assert.ok(sensors.every((r) => r.ok));
    assert.deepEqual(await deviceCounts(kv), { stations: 30, sensors: 20, units: 60 });
    // Concurrent: delete 10 bare stations, delete 5 sensors, drop a unit of 4 stations.
    const results = await Promise.all([
      ...ids.slice(20, 30).map((id) => deleteDevice(kv, id)),
      ...sensors.slice(0, 5).map((r) => deleteDevice(kv, r.ok ? r.device.id : 0)),
      ...ids.slice(12, 16).map((id) =>
        updateDevice(kv, id, (cur) => ({
          ...cur,
          config: {
            ...cur.config,
            station: { ...cur.config.station!, units: cur.config.station!.units.slice(0, 1) },
          },
        }))
      ),
      // A delete of a station with sensors is refused and counts nothing.
      deleteDevice(kv, ids[9]),
    ]);
    assert.equal(results.filter((r) => r.ok).length, 19);
    assert.deepEqual(await deviceCounts(kv), { stations: 20, sensors: 15, units: 36 });
    const rows = await listStationSummaries(kv);
    assert.deepEqual(rows.map((r) => r.id), ids.slice(0, 20).sort((a, b) => a - b));
    assert.equal(rows.find((r) => r.id === ids[12])?.units, 1);
  }));

Deno.test("device counts of devices stored before the counts existed are built once", () =>
  withKv(async (kv) => {
    await newStation(kv, "OLD-1");
    await newStation(kv, "OLD-2");
    // As a store written before the counts: no counters, no station rows, no marker.
    for await (const e of kv.list({ prefix: ["device_counts"] })) await kv.delete(e.key);
    for await (const e of kv.list({ prefix: ["station_rows"] })) await kv.delete(e.key);
    assert.deepEqual(await deviceCounts(kv), { stations: 2, sensors: 0, units: 4 });
    assert.equal((await listStationSummaries(kv)).length, 2);
  }));

Deno.test("each zone's station count follows creates, zone moves and deletes, also at once", () =>
  withKv(async (kv) => {
    const inZone = (serial: string, zone_id: number | null) =>
      createDevice(kv, null, (id) => station(id, serial, { zone_id }));
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) => inZone(`Z-${i}`, i < 8 ? 1 : i < 11 ? 2 : null)),
    );
    const ids = made.map((r) => (assert.ok(r.ok), r.device.id));
    assert.deepEqual([...await zoneStationCounts(kv)].sort(), [[1, 8], [2, 3]]);
    // At once: 3 stations of zone 1 move to zone 2, one leaves its zone, 2 of zone 2 are
    // deleted, and the station without a zone joins zone 3.
    const moveTo = (id: number, zone_id: number | null) =>
      updateDevice(kv, id, (cur) => ({ ...cur, zone_id }));
    const results = await Promise.all([
      ...ids.slice(0, 3).map((id) => moveTo(id, 2)),
      moveTo(ids[3], null),
      deleteDevice(kv, ids[8]),
      deleteDevice(kv, ids[9]),
      moveTo(ids[11], 3),
    ]);
    assert.ok(results.every((r) => r.ok));
    assert.deepEqual([...await zoneStationCounts(kv)].sort(), [[1, 4], [2, 4], [3, 1]]);
    // A zone whose last station leaves is no longer listed.
    await moveTo(ids[11], null);
    assert.deepEqual([...await zoneStationCounts(kv)].sort(), [[1, 4], [2, 4]]);
  }));

Deno.test("zone counts of a store from before them are built once from its stations", () =>
  withKv(async (kv) => {
    for (const [serial, zone_id] of [["A", 5], ["B", 5], ["C", 6]] as const) {
      assert.ok((await createDevice(kv, null, (id) => station(id, serial, { zone_id }))).ok);
    }
    // As a store whose indexes were built before the zone counts: marker 1, no zone counts.
    for await (const e of kv.list({ prefix: ["zone_station_counts"] })) await kv.delete(e.key);
    await kv.set(["devices_meta", "indexes"], 1);
    assert.deepEqual([...await zoneStationCounts(kv)].sort(), [[5, 2], [6, 1]]);
    assert.deepEqual(await deviceCounts(kv), { stations: 3, sensors: 0, units: 6 });
  }));
