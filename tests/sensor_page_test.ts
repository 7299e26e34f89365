/**
 * The sensor data page (`/admin/devices/station/{id}/sensor/{sensorId}/data`): live cards
 * with the latest readings, the 'MQTT Connection Issue' panel only while the sensor is not
 * online, Device Information, Monthly Uptime Statistics with events and the consumption
 * missed while offline, month navigation, and admins only.
 */
import assert from "node:assert/strict";
import { call, type TestApp, testsWith } from "./_helpers.ts";
import { stationWorld } from "./_station_world.ts";
import { markOffline, markOnline } from "../db/device_status.ts";
import { localParts } from "../core/local_time.ts";

const H = 3_600_000;

interface World {
  t: TestApp;
  admin: string;
  tenant: string;
  stationId: number;
  sensorId: number;
  path: string;
  month: string;
}

/** A station with one sensor created three hours back, readings written now. */
async function world(): Promise<World> {
  const w = await stationWorld();
  const { t, stationId, sensorId } = w;
  const admin = { token: w.admin.token };
  const tenant = { token: w.tenant.token };
  const now = t.deps.now();
  t.deps.telemetry.write([{
    serial: "SIM0001",
    ts: now - 60_000,
    values: {
      total_power: 1234.567,
      total_apparent_power: 1500.5,
      total_current: 5.432,
      total_energy_kwh: 1042.25,
      phase_a_power: 400.1,
      phase_a_current: 1.75,
      phase_a_voltage: 229.87,
      phase_a_pf: 0.97,
      phase_a_energy_kwh: 350.5,
      phase_b_voltage: 231.04,
      phase_c_voltage: 228.5,
    },
  }]);
  await t.deps.telemetry.flush();
  const p = localParts(now, t.deps.config.utcOffsetMinutes);
  return {
    t,
    admin: admin.token,
    tenant: tenant.token,
    stationId,
    sensorId,
    path: `/admin/devices/station/${stationId}/sensor/${sensorId}/data`,
    month: `${p.year}-${String(p.month).padStart(2, "0")}`,
  };
}

const test = testsWith(world, (w) => w.t.close());

async function page(w: World, path = w.path, status = 200): Promise<string> {
  const res = await call(w.t, "GET", path, { token: w.admin });
  const html = await res.text();
  assert.equal(res.status, status, `GET ${path}: ${html.slice(0, 300)}`);
  return html;
}

/** The text of the element carrying `data-testid="id"` up to its closing tag (rough). */
function part(html: string, id: string, length = 1500): string {
  const i = html.indexOf(`data-testid="${id}"`);
  assert.ok(i >= 0, `no ${id} on the page`);
  return html.slice(i, i + length);
}

test("the sensor page's cards show the latest readings with 2 decimals", async (w) => {
  await markOnline(w.t.deps.kv, w.sensorId, Date.now() - 2 * H);
  const html = await page(w);
  assert.match(part(html, "sensor-status", 400), /Online/);
  assert.match(part(html, "sensor-power", 400), /1,234\.57/);
  assert.match(part(html, "sensor-power", 400), /1,500\.50/);
  assert.match(part(html, "sensor-current", 300), /5\.43/);
  assert.match(part(html, "sensor-energy", 300), /1,042\.25/);
  const a = part(html, "phase-a", 900);
  for (const v of ["400.10", "1.75", "229.87", "0.97", "350.50"]) assert.ok(a.includes(v), v);
  assert.match(part(html, "phase-b", 900), /231\.04/);
  assert.match(part(html, "phase-c", 900), /228\.50/);
  assert.match(html, /data-island="SensorLive"/);
  assert.match(html, /href="http:\/\/10\.0\.0\.5"[^>]*target="_blank"/);
  assert.match(
    html,
    new RegExp(`href="/admin/devices/station/${w.stationId}/sensor/${w.sensorId}"`),
  );
  const info = part(html, "device-info", 2500);
  for (const v of ["SIM0001", "Residencial Norte", "Depto 101", "sensor/sim0001", "10.0.0.5"]) {
    assert.ok(info.includes(v), v);
  }
  assert.doesNotMatch(html, /data-testid="mqtt-issue"/, "no panel while online");
  assert.doesNotMatch(html, /Verify Certificates|Test MQTT Connection/);
});

test("a sensor that is not online shows the MQTT Connection Issue panel with setup steps and checklist", async (w) => {
  const html = await page(w);
  const panel = part(html, "mqtt-issue", 4000);
  assert.match(panel, /MQTT Connection Issue/);
  assert.match(panel, /sensor\/sim0001/);
  assert.match(panel, /localhost:\d+/, "server is this host and the broker port");
  assert.match(panel, /RPC status notifications over MQTT/);
  assert.match(panel, /Generic status update over MQTT/);
  assert.match(panel, /sim0001/);
  const checklist = part(html, "checklist", 1500);
  assert.match(checklist, /MQTT credentials configured/);
  assert.match(checklist, /No message received yet/);
  assert.match(part(html, "certificate-panel", 6000), /Verify Certificates/);
});

test("the uptime card lists a known offline hour and estimates 0.5 kWh missed per offline hour", async (w) => {
  const now = Date.now();
  await markOnline(w.t.deps.kv, w.sensorId, now - 2.5 * H);
  await markOffline(w.t.deps.kv, w.sensorId, now - 2 * H, "will", []);
  await markOnline(w.t.deps.kv, w.sensorId, now - H);
  const month = localParts(now - 1.5 * H, w.t.deps.config.utcOffsetMinutes);
  const m = `${month.year}-${String(month.month).padStart(2, "0")}`;
  const html = await page(w, `${w.path}?month=${m}`);
  assert.match(part(html, "month", 80), new RegExp(m));
  assert.match(part(html, "offline-duration", 120), />1 h</);
  assert.match(part(html, "missed-energy", 200), /0\.50 kWh/);
  const percent = part(html, "uptime-percent", 300);
  assert.match(percent, /data-band="(red|orange|yellow|green|dark_green)"/);
  assert.match(percent, /\d+\.\d%/);
  const events = part(html, "events", 2000);
  assert.match(events, /1 h/);
  assert.doesNotMatch(events, /Ongoing/);
  assert.match(html, /data-testid="prev-month"/);
});

test("an ongoing disconnection is marked in the events list", async (w) => {
  const now = Date.now();
  await markOnline(w.t.deps.kv, w.sensorId, now - 2.5 * H);
  await markOffline(w.t.deps.kv, w.sensorId, now - 30 * 60_000, "silence", []);
  const html = await page(w);
  assert.match(part(html, "events", 2000), /Ongoing/);
  assert.match(html, /data-testid="mqtt-issue"/);
});

test("a bad ?month= falls back to the current month with a clear notice, never a 500", async (w) => {
  for (const bad of ["2024-13", "nope", "2024-1", "<script>"]) {
    const html = await page(w, `${w.path}?month=${encodeURIComponent(bad)}`);
    assert.match(part(html, "invalid-month", 300), /not a valid month/);
    assert.match(part(html, "month", 80), new RegExp(w.month));
    assert.doesNotMatch(html, /<script>"/);
  }
  const old = await page(w, `${w.path}?month=2020-01`);
  assert.match(part(old, "uptime-empty", 200), /No uptime data available for this month/);
  assert.match(old, /data-testid="next-month"/);
  assert.match(old, /\?month=2020-02/);
  assert.match(old, /\?month=2019-12/);
  const current = await page(w);
  assert.doesNotMatch(current, /data-testid="next-month"/, "no next link past this month");
});

test("non-admins cannot open the sensor page", async (w) => {
  const res = await call(w.t, "GET", w.path, { token: w.tenant });
  await res.body?.cancel();
  assert.ok([302, 303].includes(res.status), `status ${res.status}`);
  assert.ok(!(res.headers.get("location") ?? "").includes("/sensor/"));
});

test("an unknown sensor still says Sensor Not Found", async (w) => {
  const html = await page(w, `/admin/devices/station/${w.stationId}/sensor/99999/data`, 404);
  assert.match(html, /Sensor Not Found/);
});
