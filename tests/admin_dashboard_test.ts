/**
 * The admin dashboard (`/admin`) and the system uptime page (`/admin/stats`) rendered on
 * the server from real devices and readings: counts, energy, tabs, the chart tab's table,
 * online counts and uptime colours, and the guard that sends other roles home.
 */
import assert from "node:assert/strict";
import {
  account,
  call,
  postSensor,
  postStation,
  type TestApp,
  testApp,
  testsWith,
} from "./_helpers.ts";
import { markOffline, markOnline } from "../db/device_status.ts";
import { dayStart, localDate } from "../core/local_time.ts";
import { uptimeClass } from "../components/dashboard/SystemStats.tsx";
import { placeStations } from "../components/dashboard/StationMap.tsx";

const H = 3_600_000;

interface World {
  t: TestApp;
  admin: string;
  customer: string;
  tenant: string;
  today: string;
  todayKwh: number;
}

function station(t: TestApp, token: string, n: number, city: string) {
  return postStation(t, token, {
    name: `Estación ${n}`,
    serial: `ST-${n}`,
    stationId: `st-${n}`,
    city,
    mqtt: { username: `station-${n}`, password: "station-pass" },
    units: [{ id: "unit_1", name: "Depto 101" }],
  });
}

function sensor(t: TestApp, token: string, stationId: number, serial: string) {
  return postSensor(t, token, stationId, {
    serial,
    unit: "unit_1",
    mqtt: { username: serial.toLowerCase(), password: "pw-sensor-0123456789" },
  });
}

/** Two stations (Monterrey online, an unknown city offline), two sensors, one reading. */
async function world(): Promise<World> {
  let clock = Date.now() - 3 * H;
  const t = await testApp({ now: () => clock });
  const admin = await account(t, "admin");
  const customer = await account(t, "customer");
  const tenant = await account(t, "user");
  const s1 = await station(t, admin.token, 1, "Monterrey");
  const s2 = await station(t, admin.token, 2, "Villa Imaginaria");
  const a = await sensor(t, admin.token, s1, "SIM0001");
  const b = await sensor(t, admin.token, s2, "SIM0002");
  clock = Date.now();
  t.deps.now = Date.now;
  const off = t.deps.config.utcOffsetMinutes;
  const now = Date.now();
  const today = localDate(now, off);
  const midnight = dayStart(today, off);
  const samples = [];
  let kwh = 1000;
  for (let ts = midnight - 15 * 60_000; ts <= now; ts += 15 * 60_000) {
    samples.push({ serial: "SIM0001", ts, values: { total_power: 2000, total_energy_kwh: kwh } });
    kwh += 0.5;
  }
  const todayKwh = 0.5 * samples.filter((x) => x.ts >= midnight && x.ts < now).length;
  t.deps.telemetry.write(samples);
  await t.deps.telemetry.flush();
  const since = now - 2 * H;
  await markOnline(t.deps.kv, s1, since);
  await markOnline(t.deps.kv, a, since);
  await markOffline(t.deps.kv, s2, since, "will", []);
  await markOffline(t.deps.kv, b, since, "will", []);
  return { t, admin: admin.token, customer: customer.token, tenant: tenant.token, today, todayKwh };
}

const test = testsWith(world, (w) => w.t.close());

async function page(w: World, path: string) {
  const res = await call(w.t, "GET", path, { token: w.admin });
  assert.equal(res.status, 200, `GET ${path}`);
  return await res.text();
}

/** The text of the element with `data-testid` (first match, tags stripped). */
function testid(html: string, id: string, length = 400): string {
  const at = html.indexOf(`data-testid="${id}"`);
  assert.ok(at >= 0, `no ${id}`);
  return html.slice(at, at + length).replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

test("GET /admin shows the device counts and the energy numbers", async (w) => {
  const html = await page(w, "/admin");
  assert.match(testid(html, "stat-stations"), /Stations 2/);
  assert.match(testid(html, "stat-sensors"), /Sensors 2/);
  assert.match(testid(html, "stat-online"), /Online 2/);
  assert.match(testid(html, "stat-units"), /Units 2/);
  assert.match(testid(html, "energy-power"), /Current Power 2\.00 kW/);
  assert.match(testid(html, "energy-today"), new RegExp(`Today ${w.todayKwh.toFixed(2)} kWh`));
  const month = testid(html, "energy-month");
  assert.match(month, /This Month \d+\.\d{3} MWh/);
  assert.match(html, /href="\/admin\/devices\/station\/create"/);
  assert.match(html, /data-island="DashboardLive"/);
});

test("GET /admin renders the list, map and chart tabs as links", async (w) => {
  const list = await page(w, "/admin");
  for (const tab of ["list", "map", "chart"]) {
    assert.match(list, new RegExp(`href="/admin\\?tab=${tab}"`));
  }
  assert.match(list, /aria-current="page"[^>]*>List</);
  assert.match(testid(list, "online-count"), /1\/2 online/);
  assert.match(list, /Estación 1/);
  assert.match(list, /Estación 2/);
  const found = await page(w, "/admin?tab=list&q=Monterrey");
  assert.match(found, /Estación 1/);
  assert.doesNotMatch(found, /Estación 2/);
  const map = await page(w, "/admin?tab=map");
  assert.match(map, /<svg[^>]*class="map-svg"/);
  assert.match(map, /marker-green/);
  assert.match(testid(map, "map-unplaced"), /Estación 2 Villa Imaginaria/);
});

test("GET /admin?tab=chart renders the series as a table on the server", async (w) => {
  const day = await page(w, `/admin?tab=chart&mode=day&date=${w.today}`);
  assert.match(day, /data-island="EnergyChart"/);
  assert.match(day, /data-testid="series-table"/);
  assert.match(day, /<td>00:00<\/td><td class="num">0\.50<\/td><td class="num">2\.00<\/td>/);
  assert.match(
    day.replace(/<!-- -->/g, ""),
    new RegExp(`Total Yield: ${w.todayKwh.toFixed(2)} kWh`),
  );
  assert.doesNotMatch(day, /"chartData"/, "the series is not inlined in island props");
  const year = await page(w, `/admin?tab=chart&mode=year&date=${w.today}`);
  assert.match(year, /<th scope="col">Date<\/th><th scope="col">Energy \(kWh\)<\/th><\/tr>/);
  const bad = await page(w, "/admin?tab=chart&mode=week&date=nope");
  assert.match(bad, /aria-current="page"[^>]*>Day</);
});

Deno.test("GET /admin with no stations prompts adding the first one", async () => {
  const t = await testApp();
  try {
    const admin = await account(t, "admin");
    const res = await call(t, "GET", "/admin", { token: admin.token });
    assert.match(testid(await res.text(), "dashboard-empty"), /Add First Station/);
  } finally {
    t.close();
  }
});

test("GET /admin/stats shows online counts, donuts, the 8-hour table and uptime colours", async (w) => {
  const html = await page(w, "/admin/stats");
  assert.match(testid(html, "card-stations"), /Stations 1\/2 online/);
  assert.match(testid(html, "card-sensors"), /Sensors 1\/2 online/);
  assert.match(testid(html, "donut-stations", 1500), /Online: 1 .*Offline: 1/);
  assert.match(html, /data-island="UptimeCharts"/);
  const table = html.slice(html.indexOf('data-testid="performance-table"'));
  assert.equal((table.match(/<tr>/g) ?? []).length, 9, "a header and 8 rows");
  assert.match(table, /uptime-pct uptime-red">50\.0%/);
  assert.doesNotMatch(table, />0\.0%</, "hours before any device are not 0 %");
  assert.match(html, /aria-current="page"[^>]*>Last 24 Hours</);
  const week = await page(w, "/admin/stats?timeframe=7d");
  assert.match(week, /aria-current="page"[^>]*>Last 7 Days</);
});

test("GET /admin and /admin/stats send customers and tenants home", async (w) => {
  for (const token of [w.customer, w.tenant]) {
    for (const path of ["/admin", "/admin/stats"]) {
      const res = await call(w.t, "GET", path, { token });
      assert.ok([302, 303].includes(res.status), `${path}: ${res.status}`);
      assert.doesNotMatch(res.headers.get("location") ?? "/admin", /^\/admin/);
    }
  }
});

Deno.test("uptimeClass() colours above 90 green, above 70 amber, else red", () => {
  assert.equal(uptimeClass(90.1), "uptime-green");
  assert.equal(uptimeClass(90), "uptime-amber");
  assert.equal(uptimeClass(70.1), "uptime-amber");
  assert.equal(uptimeClass(70), "uptime-red");
});

Deno.test("placeStations() places known cities, accents and case aside, and lists the rest", () => {
  const r = placeStations([
    { id: 1, name: "A", city: "Monterrey", status: "online" },
    { id: 2, name: "B", city: "MÉRIDA", status: "offline" },
    { id: 3, name: "C", city: "CDMX", status: "online" },
    { id: 4, name: "D", city: "", status: "online" },
  ]);
  assert.equal(r.places.length, 3);
  assert.deepEqual(r.unplaced.map((s) => s.id), [4]);
});
