/**
 * The admin's list of a whole fleet (more devices than `readStatuses` reads one by one) takes
 * each device's status and last_seen from what is kept per store: the same answer as reading
 * them, for the devices heard from and those never heard from.
 */
import assert from "node:assert/strict";
import { call, withAdminApp } from "./_helpers.ts";
import { bulkStations } from "./_bulk_stations.ts";
import { markOffline, markOnline, recordLastSeen, SCAN_ABOVE } from "../db/device_status.ts";

Deno.test("GET /api/devices for a fleet above the scan threshold serves each device's own status", () =>
  withAdminApp(async (t, admin) => {
    const stations = Math.ceil(SCAN_ABOVE / 3) + 1; // 3 meters each: more meters than the threshold
    const sensors =
      (await bulkStations(t.deps.kv, stations, { name: "Fleet", prefix: "F", units: 3 }))
        .flatMap((s) => [s.id + 1, s.id + 2, s.id + 3]);
    const [on, off, quiet] = sensors;
    await markOnline(t.deps.kv, on, 1_000);
    await recordLastSeen(t.deps.kv, [[on, 5_000]]);
    await markOffline(t.deps.kv, off, 2_000, "silence", []);
    const res = await call(t, "GET", "/api/devices?type=sensor", { token: admin });
    assert.equal(res.status, 200);
    const { devices } = await res.json() as {
      devices: { id: number; status: string; last_seen: number | null }[];
    };
    assert.ok(devices.length > SCAN_ABOVE);
    const byId = new Map(devices.map((d) => [d.id, d]));
    assert.equal(byId.get(on)!.status, "online");
    assert.equal(byId.get(on)!.last_seen, 5_000);
    assert.equal(byId.get(off)!.status, "offline");
    assert.equal(byId.get(quiet)!.status, "unknown");
    assert.equal(byId.get(quiet)!.last_seen, null);
  }));
