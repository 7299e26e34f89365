import assert from "node:assert/strict";
import { connectivityOf, fleetShape, fleetUptime } from "./fleet_uptime.ts";

const H = 3_600_000;
const NOW = Date.UTC(2026, 10, 20, 12);
const FROM = NOW - 24 * H;

// A: long-standing, online. B: added 6 h ago, online. C: long-standing, 2 h offline in the
// window (heard). D: never heard from. E: created after now (a clock ahead): not counted yet.
const A = { created_at: FROM - 100 * H, heard: true, online: true };
const B = { created_at: NOW - 6 * H, heard: true, online: true };
const C = { created_at: FROM - 5 * H, heard: true, online: false };
const D = { created_at: FROM - 1 * H, heard: false, online: false };
const E = { created_at: NOW + H, heard: true, online: true };
const C_EVENTS = {
  ...C,
  events: [{ disconnect_time: NOW - 10 * H, reconnect_time: NOW - 8 * H }],
};

Deno.test("a fleet's shape counts its devices and those online now, creation times in order", () => {
  const shape = fleetShape([B, A, C, D, E]);
  assert.equal(shape.count, 5);
  assert.equal(shape.online, 3);
  assert.deepEqual(shape.created, [A, C, D, B, E].map((m) => m.created_at));
  assert.deepEqual(shape.heard, [A, C, B, E].map((m) => m.created_at));
  assert.equal(shape.createdSums.length, 6);
  assert.equal(shape.createdSums[2], A.created_at + C.created_at);
});

Deno.test("fleet uptime: each device observed since it exists, offline only inside its events", () => {
  const shape = fleetShape([A, B, C, D, E]);
  // A, C and D the whole 24 h, B its last 6 h, E not yet: 78 h observed; C 2 h offline.
  assert.deepEqual(fleetUptime(shape, [C_EVENTS], FROM, NOW), {
    observed_seconds: 78 * 3600,
    online_seconds: 76 * 3600,
  });
  // Without any disconnection every observed second is online.
  assert.deepEqual(fleetUptime(shape, [], FROM, NOW), {
    observed_seconds: 78 * 3600,
    online_seconds: 78 * 3600,
  });
  // An outage still open at `now` counts until now; one before the window does not count.
  const open = { ...C, events: [{ disconnect_time: NOW - 3 * H, reconnect_time: null }] };
  const before = { ...A, events: [{ disconnect_time: FROM - 9 * H, reconnect_time: FROM - H }] };
  assert.deepEqual(fleetUptime(shape, [open, before], FROM, NOW), {
    observed_seconds: 78 * 3600,
    online_seconds: 75 * 3600,
  });
  assert.deepEqual(fleetUptime(fleetShape([]), [], FROM, NOW), {
    observed_seconds: 0,
    online_seconds: 0,
  });
});

Deno.test("connectivity at an instant: devices created by then, up when heard and not disconnected", () => {
  const shape = fleetShape([A, B, C, D, E]);
  const rows = connectivityOf(shape, [C_EVENTS], [NOW - 12 * H, NOW - 9 * H, NOW - 8 * H, NOW]);
  assert.deepEqual(rows, [
    { up: 2, total: 3 }, // A, C; D never heard; B not yet added
    { up: 1, total: 3 }, // C disconnected
    { up: 2, total: 3 }, // C back at its reconnect time
    { up: 3, total: 4 }, // A, B, C up; D still unheard; E not yet
  ]);
  // A device never heard from stays down even with events listed.
  const unheard = { ...D, events: [{ disconnect_time: NOW - 2 * H, reconnect_time: null }] };
  assert.deepEqual(connectivityOf(shape, [unheard], [NOW]), [{ up: 3, total: 4 }]);
});
