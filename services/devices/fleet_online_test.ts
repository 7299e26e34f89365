import assert from "node:assert/strict";
import { fleetOnline, RECOUNT_MS } from "./fleet_online.ts";
import { createDevice, deleteDevice } from "../../db/devices.ts";
import { storedSensor, storedStation } from "../../tests/_devices.ts";
import { deleteStatusOf, markOffline, markOnline } from "../../db/device_status.ts";

const log = { log() {} } as unknown as Parameters<typeof fleetOnline>[0]["log"];

/** Two stations with two sensors each; answers [station, sensor, sensor] ids per station. */
async function fleet(kv: Deno.Kv): Promise<number[][]> {
  const out: number[][] = [];
  for (let s = 0; s < 2; s++) {
    const st = await createDevice(kv, null, (id) => storedStation(id, `S${s}`));
    assert.ok(st.ok);
    const ids = [st.device.id];
    for (let i = 0; i < 2; i++) {
      const se = await createDevice(
        kv,
        st.device.id,
        (id) => storedSensor(id, st.device.id, `S${s}-${i}`, `unit_${i + 1}`),
      );
      assert.ok(se.ok);
      ids.push(se.device.id);
    }
    out.push(ids);
  }
  return out;
}

Deno.test("online figures: a station counts when it and all its sensors are online", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let clock = 0;
    const figures = () => fleetOnline({ kv, log }, () => clock);
    const [a, b] = await fleet(kv);
    assert.deepEqual(await figures(), { devices: 0, stations: 0 });
    for (const id of a) await markOnline(kv, id, 1);
    await markOnline(kv, b[0], 1);
    await markOnline(kv, b[1], 1);
    clock += RECOUNT_MS;
    // Station a and all its sensors, station b with one sensor never heard from.
    assert.deepEqual(await figures(), { devices: 5, stations: 1 });
    await markOnline(kv, b[2], 2);
    clock += RECOUNT_MS;
    assert.deepEqual(await figures(), { devices: 6, stations: 2 });
    await markOffline(kv, a[1], 3, "silence", []);
    clock += RECOUNT_MS;
    assert.deepEqual(await figures(), { devices: 5, stations: 1 });
    // Deleting the offline sensor (its status goes with it) puts station a back online.
    assert.ok((await deleteDevice(kv, a[1])).ok);
    await deleteStatusOf(kv, a[1]);
    clock += RECOUNT_MS;
    assert.deepEqual(await figures(), { devices: 5, stations: 2 });
  } finally {
    kv.close();
  }
});

Deno.test("online figures are reused until a status or device changes, then at most RECOUNT_MS old", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let clock = 0;
    const figures = () => fleetOnline({ kv, log }, () => clock);
    const [a] = await fleet(kv);
    for (const id of a) await markOnline(kv, id, 1);
    assert.deepEqual(await figures(), { devices: 3, stations: 1 });
    // A change right after a count: the previous figures are answered while one recount runs...
    await markOffline(kv, a[2], 2, "will", []);
    clock += 10;
    assert.deepEqual(await figures(), { devices: 3, stations: 1 });
    // ...and the next call finds the recount's exact figures, kept with the new revision.
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await figures(), { devices: 2, stations: 0 });
    // A new sensor (never heard from) is a device write: counted again once the count is old.
    clock += RECOUNT_MS;
    await markOnline(kv, a[2], 3);
    assert.deepEqual(await figures(), { devices: 3, stations: 1 });
    clock += RECOUNT_MS;
    // A third meter (on no unit): never heard from.
    assert.ok((await createDevice(kv, a[0], (id) => storedSensor(id, a[0], "S0-new", ""))).ok);
    assert.deepEqual(await figures(), { devices: 3, stations: 0 });
  } finally {
    kv.close();
  }
});
