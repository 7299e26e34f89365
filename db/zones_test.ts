import assert from "node:assert/strict";
import { defaultZone } from "../core/zone.ts";
import { createZone, deleteZone, getZone, listZones, updateZone, zoneHistory } from "./zones.ts";

Deno.test("zones keep one history entry per price change, newest first", async () => {
  const kv = await Deno.openKv(":memory:");
  const z = await createZone(kv, { ...defaultZone("A"), price_low: 1 }, Date.UTC(2025, 0, 1));
  assert.equal(z.id, 1);
  await updateZone(kv, z.id, { ...defaultZone("A renamed"), price_low: 1 }, Date.UTC(2025, 0, 2));
  await updateZone(kv, z.id, { ...defaultZone("A"), price_low: 2 }, Date.UTC(2025, 0, 3));
  const h = await zoneHistory(kv, z.id);
  assert.deepEqual(h.map((e) => e.price_low), [2, 1]);
  assert.equal(h[0].effective_from, "2025-01-03T00:00:00.000Z");
  assert.equal((await getZone(kv, z.id))?.name, "A");
  assert.equal(await updateZone(kv, 99, defaultZone("x"), 0), null);
  assert.equal((await listZones(kv)).length, 1);
  assert.ok(await deleteZone(kv, z.id));
  assert.equal(await getZone(kv, z.id), null);
  assert.deepEqual(await zoneHistory(kv, z.id), []);
  assert.equal(await deleteZone(kv, z.id), false);
  kv.close();
});
