/** What the tenant screens read from the meters: the 24-hour power chart and the hourly averages. */
import assert from "node:assert/strict";
import { testApp } from "./_helpers.ts";
import { dailySeries, hourlyAverage, powerSeries, unitNow } from "../services/tenant/usage.ts";
import type { TenantUnit } from "../services/tenant/mod.ts";
import { TelemetryUnavailableError } from "../db/telemetry/mod.ts";

/** 2026-11-20 12:30 UTC (06:30 in Mexico City, UTC-6). */
const NOW = Date.UTC(2026, 10, 20, 12, 30);

const unit: TenantUnit = {
  id: 9,
  name: "Depto 9",
  unit_id: "unit_9",
  serial_number: "USE-1",
  status: "online",
  last_seen: NOW,
  station: null,
};

Deno.test("the 24h power chart has 24 hourly points in kW, each the mean of 15-minute averages", async () => {
  const t = await testApp({ now: () => NOW });
  try {
    // The hour 10:00-11:00 UTC: 1000, 2000, 3000, 4000 W → mean 2500 W → 2.5 kW.
    const hour = Date.UTC(2026, 10, 20, 10);
    t.deps.telemetry.write([0, 1, 2, 3].map((q) => ({
      serial: "USE-1",
      ts: hour + q * 15 * 60_000 + 1000,
      values: { total_power: (q + 1) * 1000 },
    })));
    await t.deps.telemetry.flush();
    const points = await powerSeries(t.deps, [unit]);
    assert.equal(points.length, 24);
    // The last point is the hour holding now (12:00 UTC); 10:00 UTC is two before, 04:00 local.
    assert.deepEqual(points[21], { label: "04:00", value: 2.5 });
    assert.equal(points.filter((p) => p.value !== 0).length, 1);
    assert.equal(points[23].label, "06:00");
  } finally {
    t.close();
  }
});

Deno.test("the hourly averages split each hour's energy over the days that had it", async () => {
  const t = await testApp({ now: () => NOW });
  try {
    // Counter +2 kWh in 08:00-09:00 local (14:00 UTC) on two days: +1 then +3 → mean 2.
    const day1 = Date.UTC(2026, 10, 18, 14);
    const day2 = Date.UTC(2026, 10, 19, 14);
    t.deps.telemetry.write([
      { serial: "USE-1", ts: day1 - 60_000, values: { total_energy_kwh: 100 } },
      { serial: "USE-1", ts: day1 + 30 * 60_000, values: { total_energy_kwh: 101 } },
      { serial: "USE-1", ts: day2 - 60_000, values: { total_energy_kwh: 101 } },
      { serial: "USE-1", ts: day2 + 30 * 60_000, values: { total_energy_kwh: 104 } },
    ]);
    await t.deps.telemetry.flush();
    const hourly = await hourlyAverage(t.deps, unit);
    assert.equal(hourly.length, 24);
    assert.equal(hourly[8], 2);
    const days = await dailySeries(t.deps, [unit]);
    assert.equal(days.length, 7);
    assert.deepEqual(days.slice(-3).map((d) => d.value), [1, 3, 0]);
  } finally {
    t.close();
  }
});

Deno.test("failed meter reads reject instead of showing zeros on the tenant's pages", async () => {
  const t = await testApp({ now: () => NOW });
  const failing = new Proxy(t.deps.telemetry, {
    get(target, key) {
      const v = Reflect.get(target, key);
      if (["latest", "series", "counterDelta", "counterSeries"].includes(String(key))) {
        return () => Promise.reject(new TelemetryUnavailableError("store unreachable"));
      }
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  try {
    const deps = { ...t.deps, telemetry: failing };
    await assert.rejects(unitNow(deps, unit), TelemetryUnavailableError);
    await assert.rejects(powerSeries(deps, [unit]), TelemetryUnavailableError);
    await assert.rejects(hourlyAverage(deps, unit), TelemetryUnavailableError);
  } finally {
    t.close();
  }
});
