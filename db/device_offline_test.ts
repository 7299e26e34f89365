import assert from "node:assert/strict";
import { commitOffline, offlineCandidates } from "./device_offline.ts";
import {
  getStatusRecord,
  listDisconnectEvents,
  markOffline,
  markOnline,
  recordLastSeen,
} from "./device_status.ts";
import { withKv } from "../tests/_kv.ts";

Deno.test("offlineCandidates() leaves devices never heard from when silent, and those offline", () =>
  withKv(async (kv) => {
    await markOnline(kv, 1, 1_000);
    await markOffline(kv, 2, 1_000, "will", []);
    await recordLastSeen(kv, [[3, 1_000]]); // heard from, no status of its own
    // Few devices are read one by one, many with scans: the same answer.
    for (const extra of [0, 300]) {
      const ids = [1, 2, 3, 4, ...Array.from({ length: extra }, (_, i) => 100 + i)];
      const silent = await offlineCandidates(
        kv,
        ids.map((id) => ({ id, ts: 5_000, reason: "silence" as const })),
      );
      assert.deepEqual(silent.map((c) => c.id), [1, 3], `${ids.length} devices`);
    }
    // A Last Will means the device did connect.
    const will = await offlineCandidates(kv, [{ id: 4, ts: 5_000, reason: "will" }]);
    assert.deepEqual(will.map((c) => c.id), [4]);
  }));

Deno.test("commitOffline() decides again when another writer changed a device meanwhile", () =>
  withKv(async (kv) => {
    for (const id of [1, 2, 3]) await markOnline(kv, id, 1_000);
    const candidates = await offlineCandidates(
      kv,
      [1, 2, 3].map((id) => ({ id, ts: 5_000, reason: "silence" as const })),
    );
    // Another process marks device 2 offline first: it must not be changed (or notified) twice.
    await markOffline(kv, 2, 4_000, "will", [7]);
    const changed = await commitOffline(kv, candidates, () => [9]);
    assert.deepEqual(changed.sort(), [1, 3]);
    assert.deepEqual(
      (await listDisconnectEvents(kv, 2, 0, 10_000)).map((e) => [e.disconnect_time, e.reason]),
      [[4_000, "will"]],
    );
    assert.deepEqual((await getStatusRecord(kv, 2)).notified, [7]);
    for (const id of [1, 3]) {
      assert.partialDeepStrictEqual(await getStatusRecord(kv, id), {
        status: "offline",
        open_event: 5_000,
        notified: [9],
      });
    }
    // Stopped before its first commit, nothing changes.
    await markOnline(kv, 1, 6_000);
    const again = await offlineCandidates(kv, [{ id: 1, ts: 7_000, reason: "silence" }]);
    assert.deepEqual(await commitOffline(kv, again, () => [], () => true), []);
    assert.equal((await getStatusRecord(kv, 1)).status, "online");
  }));
