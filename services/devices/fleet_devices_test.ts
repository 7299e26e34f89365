import assert from "node:assert/strict";
import { fleetDevices } from "./fleet_devices.ts";
import { createDevice, deleteDevice, updateDevice } from "../../db/devices.ts";
import { storedStation } from "../../tests/_devices.ts";
import { withKv } from "../../tests/_kv.ts";

Deno.test("the fleet's devices are read again after every device write, and shared frozen", () =>
  withKv(async (kv) => {
    const a = await createDevice(kv, null, (id) => storedStation(id, "A", { name: "A" }));
    assert.ok(a.ok);
    const first = await fleetDevices(kv);
    assert.deepEqual(first.map((d) => d.name), ["A"]);
    // Unchanged: the same list; its records cannot be changed by a reader.
    assert.equal(await fleetDevices(kv), first);
    assert.throws(() => {
      (first[0] as { name: string }).name = "changed";
    }, TypeError);
    assert.throws(() => (first[0].config.station!.ssrs as unknown[]).push({}), TypeError);
    // Each kind of write is seen by the next read.
    const b = await createDevice(kv, null, (id) => storedStation(id, "B", { name: "B" }));
    assert.ok(b.ok);
    assert.deepEqual((await fleetDevices(kv)).map((d) => d.name), ["A", "B"]);
    assert.ok((await updateDevice(kv, a.device.id, (cur) => ({ ...cur, name: "A2" }))).ok);
    assert.deepEqual((await fleetDevices(kv)).map((d) => d.name), ["A2", "B"]);
    assert.ok((await deleteDevice(kv, b.device.id)).ok);
    assert.deepEqual((await fleetDevices(kv)).map((d) => d.name), ["A2"]);
  }));
