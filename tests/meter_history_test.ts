/**
 * Meters over time: a unit whose meter is replaced keeps one continuous history (each meter's
 * own increase counts, never a delta from one meter's counter to the other's), and manual
 * readings of a meter without network count between real readings. Figures are computed by
 * hand from the readings written; the local day is UTC-6.
 */
import assert from "node:assert/strict";
import { account, call, sensorBody, type TestApp, testApp, testsWith } from "./_helpers.ts";
import { issueToken } from "../services/platform/tokens.ts";
import { readingSegments, unitMeters, unitMeterUsage } from "../services/devices/meter_usage.ts";
import { postNorte } from "./_station_world.ts";
import { dashboardSeries } from "../services/tenant/usage.ts";

const H = 3_600_000;
/** An instant of local time 2026 (UTC-6). */
const L = (month: number, day: number, h: number, min = 0) =>
  Date.UTC(2026, month - 1, day, h + 6, min);
/** Wednesday 2 December 2026, 12:00 local. */
const NOW = L(12, 2, 12);
const NOV = { from: L(11, 1, 0), to: L(12, 1, 0) };
const iso = (ms: number) => new Date(ms).toISOString();
const r3 = (x: number) => Math.round(x * 1000) / 1000;

interface World {
  t: TestApp;
  admin: { token: string; id: number };
  tenant: { id: number };
  stationId: number;
  sensorId: number;
  /** `/api/devices/{station}/sensors/{sensor}`. */
  base: string;
  token: string;
}

/** A signed-in account on the app's clock (the clock stands in December 2026). */
async function member(t: TestApp, role: "admin" | "user", language: "es" | "en" = "en") {
  const { user } = await account(t, role, { language });
  return { id: user.id, token: await issueToken(t.deps.secret, user, NOW - 24 * H, 7 * 24 * 3600) };
}

/** Station "norte" with unit_1 measured by sensor SIM0001 of a tenant, the clock at NOW. */
const test = testsWith(async (): Promise<World> => {
  const t = await testApp({ now: () => NOW });
  const admin = await member(t, "admin");
  const tenant = await member(t, "user");
  const { stationId, sensorId } = await postNorte(t, admin.token, tenant.id);
  const base = `/api/devices/${stationId}/sensors/${sensorId}`;
  return { t, admin, tenant, stationId, sensorId, base, token: admin.token };
}, (w) => w.t.close());

/** Writes counter readings `[instant, kWh]` of meter `serial` and makes them visible. */
async function readings(t: TestApp, serial: string, rows: [number, number][]) {
  t.deps.telemetry.write(
    rows.map(([ts, kwh]) => ({ serial, ts, values: { total_energy_kwh: kwh } })),
  );
  await t.deps.telemetry.flush();
}

/**
 * The unit's usage over [from, to) (November by default) with meter `serial` now on the
 * sensor, its delta rounded to the Wh.
 */
async function usage(w: World, serial: string, from = NOV.from, to = NOV.to) {
  const u = await unitMeterUsage(w.t.deps, { id: w.sensorId, serial_number: serial }, from, to);
  return { ...u, delta: r3(u.delta) };
}

/** The month chart of November as the admin's dashboard reads it: day of month → kWh. */
async function novemberDays(w: World): Promise<Map<string, number>> {
  const res = await call(w.t, "GET", "/api/measurements?type=power&mode=month&date=2026-11-01", {
    token: w.token,
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  return new Map(
    body.chartData.map((p: { label: string; energy: number }) => [p.label, p.energy]),
  );
}

/** The days of a month chart that are not 0. */
const nonZero = (days: Map<string, number>) => [...days].filter(([, kwh]) => kwh !== 0);

test("a meter replaced mid-month: the month is each meter's own increase, 120.0 + 95.0 kWh", async (w) => {
  const { t } = w;
  // The old meter: 1380.0 before the month, 1420.5 on the 5th, 1499.6 on the 10th at 08:00.
  await readings(t, "SIM0001", [[L(10, 31, 23), 1380.0], [L(11, 5, 12), 1420.5], [
    L(11, 10, 8),
    1499.6,
  ]]);
  // Replaced on the 10th at 10:00: the old one read 1500.0, the new one starts at 0.2.
  const replaced = await call(t, "POST", `${w.base}/meters`, {
    token: w.token,
    json: { serial_number: "NEW-2", at: iso(L(11, 10, 10)), last_kwh: 1500.0, first_kwh: 0.2 },
  });
  assert.equal(replaced.status, 200);
  assert.partialDeepStrictEqual(await replaced.json(), {
    serial_number: "NEW-2",
    station_id: "norte_NEW-2",
    config: { mqtt: { topic_prefix: "sensor/new-2" } },
  });
  // The new meter: 12.7 on the 12th, 95.2 on the 30th.
  await readings(t, "NEW-2", [[L(11, 12, 12), 12.7], [L(11, 30, 18), 95.2]]);

  const sensor = { id: w.sensorId, serial_number: "NEW-2" };
  assert.deepEqual(await readingSegments(t.deps, sensor, NOV.from, NOV.to), [
    { serial: "SIM0001", from: NOV.from, to: L(11, 10, 10) },
    { serial: "NEW-2", from: L(11, 10, 10), to: NOV.to },
  ]);
  // (1500.0 - 1380.0) + (95.2 - 0.2) = 120.0 + 95.0 = 215.0 kWh; readings: the old meter's
  // 5th, 10th and last index, the new meter's first index, 12th and 30th.
  assert.deepEqual(await usage(w, "NEW-2"), { delta: 215, readings: 6, manual: 0 });

  // The daily chart: 5th 1420.5 - 1380.0 = 40.5; 10th 1500.0 - 1420.5 = 79.5 (the new meter
  // starts from its own first index); 12th 12.7 - 0.2 = 12.5; 30th 95.2 - 12.7 = 82.5.
  const days = await novemberDays(w);
  assert.deepEqual(nonZero(days), [["05", 40.5], ["10", 79.5], ["12", 12.5], ["30", 82.5]]);
  assert.ok([...days.values()].every((kwh) => kwh >= 0 && kwh <= 100));

  const summary = await call(t, "GET", `/api/measurements/${w.sensorId}/summary?month=2026-11`, {
    token: w.token,
  });
  assert.deepEqual((await summary.json()).summaries.total_energy_kwh, {
    avg: 215,
    delta: 215,
    last: 95.2,
  });
  // The tenant's six-month chart reads across both meters too.
  const months = await dashboardSeries(t.deps, [{ ...sensor, status: "online" }], "monthly");
  assert.deepEqual(months.slice(-2), [{ label: "2026-11", value: 215 }, {
    label: "2026-12",
    value: 0,
  }]);

  const history = await call(t, "GET", `${w.base}/meters`, { token: w.token });
  assert.deepEqual((await history.json()).meters, [
    { serial: "NEW-2", from: L(11, 10, 10), to: null, first_kwh: 0.2, last_kwh: null },
    { serial: "SIM0001", from: null, to: L(11, 10, 10), first_kwh: null, last_kwh: 1500 },
  ]);
});

test("a new serial number in the sensor edit starts a new meter; the old one's readings stay the unit's", async (w) => {
  const { t } = w;
  await readings(t, "SIM0001", [[L(11, 1, 12), 10.0], [L(11, 3, 12), 25.0]]);
  t.deps.now = () => L(11, 4, 12);
  const res = await call(t, "PUT", w.base, {
    token: w.token,
    json: sensorBody({
      serial: "NEW-3",
      name: "Medidor 101",
      unit: "unit_1",
      tenant: w.tenant.id,
      mqtt: { username: "new3", password: "" },
    }),
  });
  assert.equal(res.status, 200);
  t.deps.now = () => NOW;
  await readings(t, "NEW-3", [[L(11, 5, 12), 3.0], [L(11, 20, 12), 43.0]]);
  // (25.0 - 10.0) + (43.0 - 3.0) = 15.0 + 40.0 = 55.0 kWh (the new meter's first reading is
  // its starting point: no delta from 25.0 to 3.0).
  assert.deepEqual(await usage(w, "NEW-3"), { delta: 55, readings: 4, manual: 0 });
  assert.deepEqual(nonZero(await novemberDays(w)), [["03", 15], ["20", 40]]);
  const history = await (await call(t, "GET", `${w.base}/meters`, { token: w.token })).json();
  assert.deepEqual(history.meters.map((m: { serial: string; to: number | null }) => m), [
    { serial: "NEW-3", from: L(11, 4, 12), to: null, first_kwh: null, last_kwh: null },
    { serial: "SIM0001", from: null, to: L(11, 4, 12), first_kwh: null, last_kwh: null },
  ]);
});

test("a manual reading between real readings splits the energy exactly at it", async (w) => {
  const { t } = w;
  await readings(t, "SIM0001", [[L(10, 31, 23), 100.0], [L(11, 20, 12), 160.0]]);
  const body = { at: iso(L(11, 10, 12)), kwh: 130, note: "Lectura en sitio" };
  const res = await call(t, "POST", `${w.base}/manual-readings`, { token: w.token, json: body });
  assert.equal(res.status, 201);
  assert.partialDeepStrictEqual(await res.json(), {
    reading: { at: L(11, 10, 12), kwh: 130, note: "Lectura en sitio", by: w.admin.id },
  });
  // 130.0 - 100.0 = 30.0 up to the reading, 160.0 - 130.0 = 30.0 after it.
  const upTo = L(11, 10, 13);
  assert.deepEqual(await usage(w, "SIM0001", NOV.from, upTo), {
    delta: 30,
    readings: 1,
    manual: 1,
  });
  assert.deepEqual(await usage(w, "SIM0001", upTo, NOV.to), { delta: 30, readings: 1, manual: 0 });
  assert.deepEqual(await usage(w, "SIM0001"), { delta: 60, readings: 2, manual: 1 });
  assert.deepEqual(nonZero(await novemberDays(w)), [["10", 30], ["20", 30]]);

  // The same reading again changes nothing.
  const again = await call(t, "POST", `${w.base}/manual-readings`, { token: w.token, json: body });
  assert.equal(again.status, 201);
  const listed = await (await call(t, "GET", `${w.base}/meters`, { token: w.token })).json();
  assert.equal(listed.readings.length, 1);
  assert.deepEqual(await usage(w, "SIM0001"), { delta: 60, readings: 2, manual: 1 });
});

test("a meter without network counts from its manual readings alone", async (w) => {
  const { t } = w;
  for (const [at, kwh] of [[L(11, 3, 9), "50"], [L(11, 25, 9), "75,5"]] as const) {
    const res = await call(t, "POST", `${w.base}/manual-readings`, {
      token: w.token,
      json: { at: iso(at), kwh: Number(kwh.replace(",", ".")) },
    });
    assert.equal(res.status, 201);
  }
  // 75.5 - 50.0 = 25.5 kWh, counted on the 25th.
  assert.deepEqual(await usage(w, "SIM0001"), { delta: 25.5, readings: 2, manual: 2 });
  assert.deepEqual(nonZero(await novemberDays(w)), [["25", 25.5]]);
});

test("bad manual readings are refused with the field's message and change nothing", async (w) => {
  const { t } = w;
  await readings(t, "SIM0001", [[L(10, 31, 23), 100.0], [L(11, 20, 12), 160.0]]);
  const ok = await call(t, "POST", `${w.base}/manual-readings`, {
    token: w.token,
    json: { at: iso(L(11, 10, 12)), kwh: 130 },
  });
  assert.equal(ok.status, 201);
  const mid = iso(L(11, 15, 12));
  const cases: [Record<string, unknown>, string, string][] = [
    [{ at: mid, kwh: -1 }, "kwh", "The meter index must be a number of at least 0 kWh"],
    [{ at: mid, kwh: "abc" }, "kwh", "The meter index must be a number of at least 0 kWh"],
    [{ at: mid }, "kwh", "Enter the meter index in kWh"],
    [{ kwh: 140 }, "at", "Enter the date and time of the reading"],
    [{ at: "yesterday", kwh: 140 }, "at", "Enter a valid date and time"],
    [{ at: iso(NOW + H), kwh: 170 }, "at", "The date and time cannot be in the future"],
    [
      { at: iso(NOW - 40 * 24 * H), kwh: 90 },
      "at",
      "Readings older than 35 days cannot be entered",
    ],
    [
      { at: mid, kwh: 120 },
      "kwh",
      "The index cannot be below the meter's previous reading (130 kWh)",
    ],
    [{ at: mid, kwh: 170 }, "kwh", "The index cannot be above the meter's next reading (160 kWh)"],
    [
      { at: mid, kwh: 140, note: "x".repeat(501) },
      "note",
      "The note can have at most 500 characters",
    ],
  ];
  for (const [json, field, message] of cases) {
    const res = await call(t, "POST", `${w.base}/manual-readings`, { token: w.token, json });
    assert.equal(res.status, 400, JSON.stringify(json));
    assert.equal((await res.json()).errors[field], message, JSON.stringify(json));
  }
  const listed = await (await call(t, "GET", `${w.base}/meters`, { token: w.token })).json();
  assert.deepEqual(listed.readings.map((r: { kwh: number }) => r.kwh), [130]);
  assert.deepEqual(await usage(w, "SIM0001"), { delta: 60, readings: 2, manual: 1 });
});

test("a replacement that cannot be recorded is refused and changes nothing", async (w) => {
  const { t } = w;
  await readings(t, "SIM0001", [[L(11, 5, 12), 1420.5]]);
  const cases: [Record<string, unknown>, string, string][] = [
    [
      { serial_number: "SIM0001", at: iso(L(11, 10, 10)) },
      "serial_number",
      "This is the serial number of the current meter",
    ],
    [
      { serial_number: "ST-1", at: iso(L(11, 10, 10)) },
      "serial_number",
      "This serial number is already used by another device",
    ],
    [{ serial_number: "", at: iso(L(11, 10, 10)) }, "serial_number", "Serial number is required"],
    [
      { serial_number: "NEW-4", at: iso(NOW + H) },
      "at",
      "The date and time cannot be in the future",
    ],
    [
      { serial_number: "NEW-4", at: iso(L(11, 10, 10)), last_kwh: 1400 },
      "last_kwh",
      "The index cannot be below the meter's previous reading (1420.5 kWh)",
    ],
    [
      { serial_number: "NEW-4", at: iso(L(11, 10, 10)), first_kwh: -2 },
      "first_kwh",
      "The meter index must be a number of at least 0 kWh",
    ],
  ];
  for (const [json, field, message] of cases) {
    const res = await call(t, "POST", `${w.base}/meters`, { token: w.token, json });
    assert.equal(res.status, 400, JSON.stringify(json));
    assert.equal((await res.json()).errors[field], message, JSON.stringify(json));
  }
  const sensor = await (await call(t, "GET", w.base, { token: w.token })).json();
  assert.equal(sensor.serial_number, "SIM0001");
  const listed = await (await call(t, "GET", `${w.base}/meters`, { token: w.token })).json();
  assert.deepEqual(listed.meters, [
    { serial: "SIM0001", from: null, to: null, first_kwh: null, last_kwh: null },
  ]);
  // A replacement before the current meter's start is refused too.
  const first = await call(t, "POST", `${w.base}/meters`, {
    token: w.token,
    json: { serial_number: "NEW-4", at: iso(L(11, 10, 10)) },
  });
  assert.equal(first.status, 200);
  const earlier = await call(t, "POST", `${w.base}/meters`, {
    token: w.token,
    json: { serial_number: "NEW-5", at: iso(L(11, 9, 10)) },
  });
  assert.equal(earlier.status, 400);
  assert.equal(
    (await earlier.json()).errors.at,
    "The replacement must be after the current meter was installed",
  );
});

test("the sensor page lists the meters and manual readings; its form refuses a bad reading in the admin's language", async (w) => {
  const { t } = w;
  const es = await member(t, "admin", "es");
  const page = `/admin/devices/station/${w.stationId}/sensor/${w.sensorId}`;
  await readings(t, "SIM0001", [[L(10, 31, 23), 100.0], [L(11, 20, 12), 160.0]]);
  const refused = await call(t, "POST", `${page}/meter/reading`, {
    token: es.token,
    form: { at: "2026-11-10T12:00", kwh: "-5", note: "Lectura en sitio" },
  });
  assert.equal(refused.status, 400);
  const html = await refused.text();
  assert.match(html, /La lectura manual no se guardó/);
  assert.match(
    html,
    /id="reading-kwh-error"[^>]*>El índice del medidor debe ser un número de al menos 0 kWh/,
  );
  assert.match(html, /id="reading-note"[^>]*value="Lectura en sitio"/);
  const below = await call(t, "POST", `${page}/meter/reading`, {
    token: es.token,
    form: { at: "2026-11-10T12:00", kwh: "99,5" },
  });
  assert.equal(below.status, 400);
  assert.match(
    await below.text(),
    /El índice no puede ser menor que la lectura anterior del medidor \(100 kWh\)/,
  );
  const none = await (await call(t, "GET", `${w.base}/meters`, { token: w.token })).json();
  assert.deepEqual(none.readings, []);

  const saved = await call(t, "POST", `${page}/meter/reading`, {
    token: es.token,
    form: { at: "2026-11-10T12:00", kwh: "130,0", note: "Lectura en sitio" },
  });
  assert.equal(saved.status, 303);
  assert.equal(saved.headers.get("location"), `${page}/data?done=reading_saved#meters`);
  const replaced = await call(t, "POST", `${page}/meter/replace`, {
    token: es.token,
    form: { serial_number: "NEW-9", at: "2026-11-25T10:00", last_kwh: "", first_kwh: "0,2" },
  });
  assert.equal(replaced.status, 303);
  const shown = await (await call(t, "GET", `${page}/data`, { token: es.token })).text();
  const history = shown.slice(shown.indexOf('data-testid="meter-history"'));
  assert.match(history, /NEW-9[\s\S]*2026-11-25 10:00[\s\S]*En servicio/);
  assert.match(history, /SIM0001[\s\S]*Desde la instalación[\s\S]*2026-11-25 10:00/);
  const manual = shown.slice(shown.indexOf('data-testid="manual-readings"'));
  assert.match(
    manual,
    /2026-11-10 12:00[\s\S]*Manual[\s\S]*130[\s\S]*SIM0001[\s\S]*Lectura en sitio/,
  );
  // 130.0 - 100.0 = 30.0 up to the reading; 160.0 - 130.0 = 30.0 after it, before the change;
  // readings: the manual one, the old meter's 20th, the new meter's first index.
  assert.deepEqual(await usage(w, "NEW-9"), { delta: 60, readings: 3, manual: 1 });
});

test("reads cut to windows count a window's readings exactly and a shared hour once", async (w) => {
  const { t } = w;
  // 10:00 100.0, 10:20 101.0, 10:40 103.0 on the 10th.
  await readings(t, "SIM0001", [[L(11, 10, 10), 100], [L(11, 10, 10, 20), 101], [
    L(11, 10, 10, 40),
    103,
  ]]);
  const sensor = { id: w.sensorId, serial_number: "SIM0001" };
  const windows = [
    { from: L(11, 10, 10), to: L(11, 10, 10, 15) },
    { from: L(11, 10, 10, 30), to: L(11, 10, 10, 50) },
  ];
  assert.deepEqual(await readingSegments(t.deps, sensor, NOV.from, NOV.to, windows), [
    { serial: "SIM0001", ...windows[0] },
    { serial: "SIM0001", ...windows[1] },
  ]);
  const m = await unitMeters(t.deps, sensor, windows);
  // The first window holds the first reading alone (0); the second the step 101 -> 103.
  assert.equal(await m.counterDelta("total_energy_kwh", NOV.from, NOV.to), 2);
  // The hour both windows share is one bucket of one meter: its 3.0 kWh once, not twice.
  assert.deepEqual(await m.counterSeries("total_energy_kwh", NOV.from, NOV.to, "1h"), [
    { ts: Date.UTC(2026, 10, 10, 16), value: 3 },
  ]);
});

test("a manual reading the store cannot take is refused (503) and not listed", async (w) => {
  const { t } = w;
  const store = t.deps.telemetry;
  const flush = store.flush;
  store.flush = () => Promise.reject(new Error("store unreachable"));
  try {
    const res = await call(t, "POST", `${w.base}/manual-readings`, {
      token: w.token,
      json: { at: iso(L(11, 10, 12)), kwh: 130 },
    });
    assert.equal(res.status, 503);
    assert.equal(
      (await res.json()).message,
      "The readings store cannot be reached; try again in a moment",
    );
  } finally {
    store.flush = flush;
  }
  const listed = await (await call(t, "GET", `${w.base}/meters`, { token: w.token })).json();
  assert.deepEqual(listed.readings, []);
});
