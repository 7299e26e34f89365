/**
 * The measurements and analytics API over real readings in the embedded time-series store:
 * overview, charts, realtime, history, summary, deltas, uptime and system figures, each
 * limited to the sensors the caller may see.
 */
import assert from "node:assert/strict";
import { account, call, type TestApp, testsWith } from "./_helpers.ts";
import { stationWorld } from "./_station_world.ts";
import { markOffline, markOnline } from "../db/device_status.ts";
import { dayStart, localDate } from "../core/local_time.ts";
import { loadConfig } from "../services/platform/config.ts";

const H = 3_600_000;

/**
 * The world's clock: 10:30 in the portal's time zone (the offset the test app is configured
 * with) on the latest day where that is not in the future, so that "today" always has
 * more than two hours of readings, whatever time the tests run.
 */
function lateMorning(): number {
  const off = loadConfig({ DATA_DIR: "/nonexistent" }).utcOffsetMinutes;
  const at = dayStart(localDate(Date.now(), off), off) + 10.5 * H;
  return at <= Date.now() ? at : at - 24 * H;
}

interface World {
  t: TestApp;
  /** Energy (kWh) of the readings taken since local midnight. */
  todayKwh: number;
  admin: string;
  tenant: string;
  other: string;
  customer: string;
  sensorId: number;
  stationId: number;
  today: string;
  midnight: number;
}

/** The station world plus a customer who owns the station, another tenant, and readings. */
async function world(): Promise<World> {
  const w = await stationWorld(lateMorning());
  const { t, stationId, sensorId } = w;
  const admin = { token: w.admin.token };
  const tenant = { token: w.tenant.token };
  const customer = await account(t, "customer");
  const other = await account(t, "user");
  const assign = await call(t, "POST", "/api/devices/assign-customer", {
    token: admin.token,
    json: { customer_id: customer.user.id, station_ids: [stationId] },
  });
  assert.equal(assign.status, 200);

  // Readings: since local midnight, every 15 minutes, 2 kW steady: 0.5 kWh per quarter.
  const off = t.deps.config.utcOffsetMinutes;
  const now = t.deps.now();
  const today = localDate(now, off);
  const midnight = dayStart(today, off);
  const samples = [];
  let kwh = 1000;
  for (let ts = midnight - 15 * 60_000; ts <= now; ts += 15 * 60_000) {
    samples.push({
      serial: "SIM0001",
      ts,
      values: { total_power: 2000, total_energy_kwh: kwh, phase_a_voltage: 230 },
    });
    kwh += 0.5;
  }
  const todayKwh = 0.5 * samples.filter((x) => x.ts >= midnight && x.ts < now).length;
  t.deps.telemetry.write(samples);
  await t.deps.telemetry.flush();
  await markOnline(t.deps.kv, sensorId, midnight - 2 * H);
  return {
    t,
    todayKwh,
    admin: admin.token,
    tenant: tenant.token,
    other: other.token,
    customer: customer.token,
    sensorId,
    stationId,
    today,
    midnight,
  };
}

const test = testsWith(world, (w) => w.t.close());

test("GET /api/measurements/{id}/realtime answers the latest values to those who may see the sensor", async (w) => {
  for (const token of [w.admin, w.tenant, w.customer]) {
    const res = await call(w.t, "GET", `/api/measurements/${w.sensorId}/realtime`, { token });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.measurements.total_power, 2000);
    assert.equal(body.measurements.phase_a_voltage, 230);
    assert.equal(body.status, "online");
  }
  const hidden = await call(w.t, "GET", `/api/measurements/${w.sensorId}/realtime`, {
    token: w.other,
  });
  assert.equal(hidden.status, 404, "another tenant cannot read it");
  const station = await call(w.t, "GET", `/api/measurements/${w.stationId}/realtime`, {
    token: w.admin,
  });
  assert.equal(station.status, 404, "realtime is per sensor");
});

test("GET /api/measurements?mode=day gives 96 quarters whose energy adds up to the day's yield", async (w) => {
  const res = await call(w.t, "GET", `/api/measurements?type=power&mode=day&date=${w.today}`, {
    token: w.tenant,
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.totalYield, w.todayKwh);
  const sum = body.chartData.reduce((s: number, p: { energy: number }) => s + p.energy, 0);
  assert.equal(Math.round(sum * 100) / 100, body.totalYield);
  assert.equal(body.chartData[0].label, "00:00");
  assert.equal(body.chartData[0].power, 2, "2000 W is 2 kW");
  assert.equal(body.totalEarning, 0);
  const none = await call(w.t, "GET", `/api/measurements?type=power&mode=day&date=${w.today}`, {
    token: w.other,
  });
  assert.equal((await none.json()).totalYield, 0, "another tenant sees no energy");
});

test("the month, year and total charts and the overview agree with the day's energy", async (w) => {
  const expected = w.todayKwh;
  for (const mode of ["month", "year", "total"]) {
    const res = await call(w.t, "GET", `/api/measurements?mode=${mode}&date=${w.today}`, {
      token: w.admin,
    });
    assert.equal(res.status, 200, mode);
    const body = await res.json();
    assert.ok(body.chartData.length > 0, mode);
    // Yesterday's last quarter (0.5 kWh) also lands in the month unless today is the 1st.
    assert.ok(body.totalYield >= expected, `${mode}: ${body.totalYield} >= ${expected}`);
  }
  const ov = await (await call(w.t, "GET", "/api/measurements/overview", { token: w.customer }))
    .json();
  assert.equal(ov.currentPower, 2);
  assert.equal(ov.todayYield, expected);
  assert.equal(ov.totalCapacity, 2);
});

test("GET /api/analytics/delta is the counter's increase and refuses bad ranges", async (w) => {
  const start = new Date(w.midnight).toISOString();
  const end = new Date(w.midnight + 2 * H).toISOString();
  const res = await call(
    w.t,
    "GET",
    `/api/analytics/delta?sensorId=${w.sensorId}&startDate=${start}&endDate=${end}&field=total_energy_kwh`,
    { token: w.tenant },
  );
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(w.t.deps.now() - w.midnight, 10.5 * H, "the clock stands at 10:30 local time");
  assert.equal(body.delta, 4, "2 hours at 2 kW");
  for (
    const q of [
      `sensorId=${w.sensorId}&startDate=${end}&endDate=${start}`,
      `sensorId=${w.sensorId}&startDate=yesterday&endDate=${end}`,
      `sensorId=abc&startDate=${start}&endDate=${end}`,
      `sensorId=${w.sensorId}&startDate=${start}&endDate=${end}&field=total_power`,
    ]
  ) {
    const bad = await call(w.t, "GET", `/api/analytics/delta?${q}`, { token: w.admin });
    assert.equal(bad.status, 400, q);
    assert.ok((await bad.json()).errors);
  }
});

test("GET /api/analytics/uptime/{id} counts a disconnection and lists it", async (w) => {
  const now = w.t.deps.now();
  await markOffline(w.t.deps.kv, w.sensorId, now - 2 * H, "will", []);
  await markOnline(w.t.deps.kv, w.sensorId, now - H);
  const month = localDate(now - 1.5 * H, w.t.deps.config.utcOffsetMinutes).slice(0, 7);
  const res = await call(w.t, "GET", `/api/analytics/uptime/${w.sensorId}?month=${month}`, {
    token: w.tenant,
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.disconnect_events.length, 1);
  assert.equal(body.disconnect_events[0].duration_seconds, 3600);
  assert.equal(body.disconnect_events[0].still_disconnected, false);
  assert.ok(body.uptime_percent < 100 && body.uptime_percent > 0);
  assert.equal(body.previous_months.length, 3);
  const bad = await call(w.t, "GET", `/api/analytics/uptime/${w.sensorId}?month=2026-13`, {
    token: w.admin,
  });
  assert.equal(bad.status, 400);
});

test("history, summary and the system figures answer with the spec's fields", async (w) => {
  const hist = await (await call(
    w.t,
    "GET",
    `/api/measurements/${w.sensorId}/history?timerange=day&aggregation=1h`,
    { token: w.admin },
  )).json();
  assert.ok(hist.data.length > 0);
  assert.deepEqual(Object.keys(hist.data[0]).sort(), ["measurement", "timestamp", "value"]);
  assert.equal(hist.data[0].measurement, "total_power");
  const sum = await (await call(
    w.t,
    "GET",
    `/api/measurements/${w.sensorId}/summary?timerange=month&month=${w.today.slice(0, 7)}`,
    { token: w.admin },
  )).json();
  assert.ok(sum.summaries.total_energy_kwh.avg >= w.todayKwh);
  const stats = await (await call(w.t, "GET", "/api/measurements/system-stats", {
    token: w.admin,
  })).json();
  assert.equal(stats.sensorCount, 1);
  assert.equal(stats.sensorsOnline, 1);
  assert.equal(stats.stationCount, 1);
  for (const [tf, rows] of [["24h", 24], ["7d", 28], ["30d", 30]] as const) {
    const perf = await (await call(
      w.t,
      "GET",
      `/api/measurements/system-performance?timeframe=${tf}`,
      { token: w.admin },
    )).json();
    assert.equal(perf.data.length, rows, tf);
    assert.deepEqual(Object.keys(perf.data[0]).sort(), [
      "hour",
      "sensor_connectivity",
      "sensors_online",
      "sensors_total",
      "station_connectivity",
      "stations_online",
      "stations_total",
    ]);
  }
  for (
    const bad of [
      "/api/measurements/system-performance?timeframe=1y",
      "/api/measurements?mode=week",
      "/api/measurements?mode=day&date=2026-02-30x",
      `/api/measurements/${w.sensorId}/history?aggregation=5m`,
      `/api/measurements/${w.sensorId}/summary?month=nov`,
    ]
  ) {
    const res = await call(w.t, "GET", bad, { token: w.admin });
    assert.equal(res.status, 400, bad);
  }
  const anon = await call(w.t, "GET", "/api/measurements/overview");
  assert.equal(anon.status, 401);
});
