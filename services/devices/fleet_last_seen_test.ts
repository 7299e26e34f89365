import assert from "node:assert/strict";
import { fleetLastSeen, LAST_SEEN_MS, STALE_MS } from "./fleet_last_seen.ts";
import { recordLastSeen } from "../../db/device_status.ts";
import { withKv } from "../../tests/_kv.ts";

Deno.test("the fleet's last_seen is read again once it is LAST_SEEN_MS old, not before", () =>
  withKv(async (kv) => {
    let now = 1_000;
    const clock = () => now;
    await recordLastSeen(kv, [[1, 100], [2, 200]]);
    assert.deepEqual([...(await fleetLastSeen(kv, clock))], [[1, 100], [2, 200]]);
    await recordLastSeen(kv, [[1, 150], [3, 300]]);
    now += LAST_SEEN_MS - 1;
    assert.deepEqual([...(await fleetLastSeen(kv, clock))], [[1, 100], [2, 200]], "kept");
    now += 1;
    // Old enough to read again: this caller is answered the kept map while the read runs...
    assert.deepEqual([...(await fleetLastSeen(kv, clock))], [[1, 100], [2, 200]]);
    await new Promise((r) => setTimeout(r, 50));
    // ...and the next one the new read.
    assert.deepEqual([...(await fleetLastSeen(kv, clock))], [[1, 150], [2, 200], [3, 300]]);
    await recordLastSeen(kv, [[2, 250]]);
    now += STALE_MS;
    assert.deepEqual(
      [...(await fleetLastSeen(kv, clock))],
      [[1, 150], [2, 250], [3, 300]],
      "too old to answer while reading: the caller waits for the read",
    );
  }));

Deno.test("callers at the same time share one read", () =>
  withKv(async (kv) => {
    await recordLastSeen(kv, [[1, 100]]);
    const clock = () => 0;
    const [a, b] = await Promise.all([fleetLastSeen(kv, clock), fleetLastSeen(kv, clock)]);
    assert.equal(a, b);
  }));
