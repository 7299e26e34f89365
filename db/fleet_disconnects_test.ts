/**
 * The fleet's disconnect events by the time they ended: one range read answers, for every
 * device, the events that overlap a window, the same as reading each device's own; events
 * stored before the index existed are found too, and a deleted device's are gone.
 */
import assert from "node:assert/strict";
import {
  deleteStatusOf,
  fleetDisconnectEvents,
  listDisconnectEvents,
  markOffline,
  markOnline,
} from "./device_status.ts";
import type { DisconnectEvent } from "../core/devices.ts";
import { withKv } from "../tests/_kv.ts";

/** Device `id` goes offline and back at the given times (null: still offline). */
async function outages(kv: Deno.Kv, id: number, spans: [number, number | null][]) {
  for (const [off, on] of spans) {
    await markOffline(kv, id, off, "silence", []);
    if (on !== null) await markOnline(kv, id, on);
  }
}

/** What reading each device's events gives, without the devices that have none. */
async function perDevice(kv: Deno.Kv, ids: number[], from: number, to: number) {
  const out = new Map<number, DisconnectEvent[]>();
  for (const id of ids) {
    const events = await listDisconnectEvents(kv, id, from, to);
    if (events.length) out.set(id, events);
  }
  return out;
}

Deno.test("fleetDisconnectEvents() answers each device's events overlapping the window", () =>
  withKv(async (kv) => {
    await outages(kv, 1, [[100, 200], [300, 400], [900, null]]);
    await outages(kv, 2, [[50, 150]]);
    await outages(kv, 3, [[10, 20]]); // ended before every window below
    await outages(kv, 4, [[450, null]]); // still open
    await outages(kv, 5, [[700, 800]]);
    const ids = [1, 2, 3, 4, 5, 6];
    for (const [from, to] of [[0, 1000], [150, 350], [200, 300], [401, 699], [800, 901]]) {
      assert.deepEqual(
        await fleetDisconnectEvents(kv, from, to),
        await perDevice(kv, ids, from, to),
        `[${from}, ${to})`,
      );
    }
    const w = await fleetDisconnectEvents(kv, 150, 350);
    assert.deepEqual([...w.keys()].sort(), [1]);
    assert.deepEqual(w.get(1)!.map((e) => e.disconnect_time), [100, 300]);
    assert.deepEqual([...(await fleetDisconnectEvents(kv, 401, 699)).keys()], [4]);

    await deleteStatusOf(kv, 1);
    assert.equal((await fleetDisconnectEvents(kv, 0, 1000)).has(1), false);
    assert.deepEqual(await fleetDisconnectEvents(kv, 0, 1000), await perDevice(kv, ids, 0, 1000));
  }));

Deno.test("events stored before the index existed are indexed once, and close as usual", () =>
  withKv(async (kv) => {
    // As an older portal kept them: the event and the status, nothing else.
    const open: DisconnectEvent = {
      disconnect_time: 500,
      reconnect_time: null,
      still_disconnected: true,
      duration_seconds: null,
      reason: "will",
    };
    const closed = { ...open, disconnect_time: 100, reconnect_time: 200, duration_seconds: 0 };
    await kv.set(["device_events", 7, 100], { ...closed, still_disconnected: false });
    await kv.set(["device_events", 7, 500], open);
    await kv.set(["device_status", 7], {
      status: "offline",
      changed_at: 500,
      open_event: 500,
      notified: [],
    });
    assert.deepEqual(await fleetDisconnectEvents(kv, 0, 1000), await perDevice(kv, [7], 0, 1000));
    assert.deepEqual(
      (await fleetDisconnectEvents(kv, 300, 1000)).get(7)!.map((e) => e.disconnect_time),
      [500],
    );
    await markOnline(kv, 7, 600);
    const after = await fleetDisconnectEvents(kv, 0, 1000);
    assert.deepEqual(after.get(7)!.map((e) => [e.disconnect_time, e.reconnect_time]), [
      [100, 200],
      [500, 600],
    ]);
    assert.equal((await fleetDisconnectEvents(kv, 601, 1000)).has(7), false);
  }));
