import assert from "node:assert/strict";
import {
  deleteStatusOf,
  getStatusRecord,
  listDisconnectEvents,
  markOffline,
  markOnline,
  readStatuses,
  recordLastSeen,
  SCAN_ABOVE,
} from "./device_status.ts";
import { withKv } from "../tests/_kv.ts";

Deno.test("readStatuses() answers the same for few devices (point reads) and many (scans)", () =>
  withKv(async (kv) => {
    const ids = Array.from({ length: SCAN_ABOVE + 60 }, (_, i) => i + 1);
    for (const id of ids) {
      if (id % 3 === 0) await markOnline(kv, id, 1000 + id);
      else if (id % 3 === 1) await markOffline(kv, id, 2000 + id, "will", []);
    }
    await recordLastSeen(kv, ids.filter((id) => id % 2 === 0).map((id) => [id, 5000 + id]));
    const many = await readStatuses(kv, ids);
    assert.equal(many.size, SCAN_ABOVE + 60);
    for (const id of ids) {
      const few = (await readStatuses(kv, [id])).get(id);
      assert.deepEqual(many.get(id), few, `device ${id}`);
    }
    assert.deepEqual(many.get(3), { status: "online", last_seen: 1003 });
    assert.deepEqual(many.get(4), { status: "offline", last_seen: 5004 });
    assert.deepEqual(many.get(5), { status: "unknown", last_seen: null });
    assert.deepEqual(many.get(6), { status: "online", last_seen: 5006 });
    assert.deepEqual((await readStatuses(kv, [999_999])).get(999_999), {
      status: "unknown",
      last_seen: null,
    });
  }));

Deno.test("markOffline() and markOnline() change only on a transition and close the event", () =>
  withKv(async (kv) => {
    assert.equal(await markOffline(kv, 1, 10_000, "silence", [7, 8]), true);
    assert.equal(await markOffline(kv, 1, 20_000, "will", [9]), false);
    assert.deepEqual((await getStatusRecord(kv, 1)).notified, [7, 8]);
    // A reconnect reported with an earlier clock than the disconnect lasts 0 seconds.
    const back = await markOnline(kv, 1, 9_000);
    assert.deepEqual(back, {
      changed: true,
      notified: [7, 8],
      closed: {
        disconnect_time: 10_000,
        reconnect_time: 10_000,
        still_disconnected: false,
        duration_seconds: 0,
        reason: "silence",
      },
    });
    assert.deepEqual(await markOnline(kv, 1, 30_000), {
      changed: false,
      closed: null,
      notified: [],
    });
    assert.equal((await listDisconnectEvents(kv, 1, 0, 100_000)).length, 1);
    await deleteStatusOf(kv, 1);
    assert.deepEqual(await listDisconnectEvents(kv, 1, 0, 100_000), []);
    assert.equal((await getStatusRecord(kv, 1)).status, "unknown");
  }));
