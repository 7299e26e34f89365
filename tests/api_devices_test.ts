/** The devices API (`/api/devices*`) through `app.request`: stations, sensors, visibility. */
import assert from "node:assert/strict";
import {
  account,
  adminTest,
  call,
  createdWithout,
  fieldErrorsOf,
  seedAccessCode,
  type TestApp,
  testApp,
  testsWith,
} from "./_helpers.ts";
import { findByMqttUsername, getDevice, listDevices } from "../db/devices.ts";
import { markOffline, markOnline } from "../db/device_status.ts";
import { findUserByEmail, getUser } from "../db/users.ts";
import { verifyMqttPassword } from "../services/platform/mqtt_passwords.ts";

/** A valid station body; `over` replaces top-level fields. */
function stationBody(n: number, over: Record<string, unknown> = {}) {
  return {
    name: `Residencial ${n}`,
    location: JSON.stringify({
      street: "Av. Juárez",
      street_number: "12",
      colony: "Centro",
      postal_code: "64000",
      city: "Monterrey",
      state: "Nuevo León",
      country: "México",
      indications: "",
    }),
    serial_number: `ST-${n}`,
    station_id: `station_${n}`,
    zone_id: null,
    type: "station",
    config: {
      mqtt: { username: `station-${n}`, password: "station-pass", topic_prefix: "ignored" },
      station: {
        ssrs: [
          { id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 },
          { id: "ssr_2", name: "SSR 2", type: "emergency", gpio_pin: 1 },
        ],
        units: [
          { id: "unit_1", name: "Depto 101", ssr_id: "ssr_1" },
          { id: "unit_2", name: "Depto 102", ssr_id: "ssr_1" },
          { id: "unit_3", name: "Depto 103", ssr_id: "ssr_2" },
        ],
      },
    },
    ...over,
  };
}

/** A valid sensor body. */
function sensorBody(
  serial: string,
  unit: string,
  tenant: number | null = null,
  password = "meter-pw-0123456789",
) {
  return {
    name: `Meter ${serial}`,
    serial_number: serial,
    type: "sensor",
    config: {
      mqtt: { username: `mqtt-${serial}`, password, topic_prefix: "whatever" },
      sensor: { unit_id: unit, tenant_id: tenant, ip_address: "192.168.1.50" },
    },
  };
}

interface World {
  t: TestApp;
  admin: { token: string; user: { id: number } };
  customer: { token: string; user: { id: number; full_name: string } };
  tenant: { token: string; user: { id: number; full_name: string } };
  tenant2: { token: string; user: { id: number } };
  station: number;
  other: number;
  sensor: number;
  sensor2: number;
  otherSensor: number;
}

async function post(t: TestApp, token: string, path: string, json: unknown) {
  const res = await call(t, "POST", path, { token, json });
  const body = await res.json();
  assert.ok(res.status < 300, `${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * Two stations: `station` of the customer with the tenant's sensor (unit_1) and the
 * second tenant's sensor (unit_2); `other` with no customer and one sensor of nobody.
 */
async function world(): Promise<World> {
  const t = await testApp();
  const admin = await account(t, "admin");
  const customer = await account(t, "customer", { full_name: "Carla Dueña" });
  const tenant = await account(t, "user", { full_name: "Tina Tenant" });
  const tenant2 = await account(t, "user");
  const station = (await post(t, admin.token, "/api/devices", stationBody(1))).id;
  const other = (await post(t, admin.token, "/api/devices", stationBody(2))).id;
  const sensor = (await post(
    t,
    admin.token,
    `/api/devices/${station}/sensors`,
    sensorBody("A1", "unit_1", tenant.user.id),
  )).id;
  const sensor2 = (await post(
    t,
    admin.token,
    `/api/devices/${station}/sensors`,
    sensorBody("A2", "unit_2", tenant2.user.id),
  )).id;
  const otherSensor =
    (await post(t, admin.token, `/api/devices/${other}/sensors`, sensorBody("B1", "unit_1"))).id;
  await post(t, admin.token, "/api/devices/assign-customer", {
    customer_id: customer.user.id,
    station_ids: [station],
  });
  return { t, admin, customer, tenant, tenant2, station, other, sensor, sensor2, otherSensor };
}

/** `Deno.test` with a fresh {@link world}, closed however the test ends. */
const worldTest = testsWith(world, (w) => w.t.close());

const ids = (list: { id: number }[]) => list.map((d) => d.id).sort((a, b) => a - b);

async function snapshot(t: TestApp) {
  return JSON.stringify(await listDevices(t.deps.kv));
}

adminTest(
  "POST /api/devices creates a station (201) with derived prefix, no password, effective status",
  async ({ t, admin }) => {
    const res = await call(t, "POST", "/api/devices", { token: admin.token, json: stationBody(7) });
    const s = await createdWithout(res, ["station-pass", "pbkdf2"]);
    assert.equal(typeof s.id, "number");
    assert.partialDeepStrictEqual(s, {
      type: "station",
      name: "Residencial 7",
      serial_number: "ST-7",
      station_id: "station_7",
      status: "unknown",
      last_seen: null,
      customer: null,
      zone: null,
      payment_status: "other",
    });
    assert.deepEqual(s.config.mqtt, { username: "station-7", topic_prefix: "station/ST-7" });
    assert.equal(JSON.parse(s.location).city, "Monterrey");
    assert.equal(s.config.station.ssrs.length, 2);
    assert.deepEqual(s.config.station.units[0], {
      id: "unit_1",
      name: "Depto 101",
      ssr_id: "ssr_1",
      station_id: s.id,
      tenant_id: null,
    });
    const stored = await findByMqttUsername(t.deps.kv, "station-7");
    assert.ok(stored && await verifyMqttPassword("station-pass", stored.mqtt_password_hash));
    assert.ok(!JSON.stringify(stored).includes("station-pass"));
  },
);

adminTest(
  "POST /api/devices answers every station message verbatim (400) and writes nothing",
  async ({ t, admin }) => {
    const res = await call(t, "POST", "/api/devices", {
      token: admin.token,
      json: { location: "" },
    });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.deepEqual(body.errors, {
      name: "Station name is required",
      city: "City is required",
      state: "State is required",
      country: "Country is required",
      serial_number: "Serial number is required",
      station_id: "Station ID is required",
      mqtt_username: "MQTT username is required",
      mqtt_password: "MQTT password is required",
      ssrs: "Number of SSRs must be between 1 and 12",
    });
    assert.equal(body.message, "Station name is required");

    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [
        { ssrs: Array.from({ length: 13 }, (_, i) => ({ id: `ssr_${i + 1}`, gpio_pin: i })) },
        { ssrs: "Maximum 12 SSRs allowed" },
      ],
      [{ ssrs: [{ id: "ssr_1", gpio_pin: 20 }] }, { ssrs: "Maximum GPIO pin (GPIO19) reached" }],
      [
        { ssrs: [{ id: "ssr_1", gpio_pin: 0 }], units: [{ id: "unit_1", ssr_id: "ssr_2" }] },
        { units: "Units must be assigned to existing SSRs" },
      ],
      [
        { ssrs: [{ id: "ssr_1", gpio_pin: 3 }, { id: "ssr_2", gpio_pin: 3 }] },
        { ssrs: "Each SSR needs its own GPIO pin" },
      ],
    ];
    for (const [station, errors] of cases) {
      const body = stationBody(1);
      const json = { ...body, config: { ...body.config, station: { units: [], ...station } } };
      const r = await call(t, "POST", "/api/devices", { token: admin.token, json });
      assert.deepEqual(await fieldErrorsOf(r), errors);
    }
    // Plain text location is the city; state and country are still required.
    const plain = await call(t, "POST", "/api/devices", {
      token: admin.token,
      json: stationBody(1, { location: "Monterrey" }),
    });
    assert.deepEqual((await plain.json()).errors, {
      state: "State is required",
      country: "Country is required",
    });
    // Not JSON, wrong types, topic characters in the serial.
    const notJson = await call(t, "POST", "/api/devices", { token: admin.token, jsonText: "{" });
    assert.equal(notJson.status, 400);
    await notJson.body?.cancel();
    const wrong = await call(t, "POST", "/api/devices", {
      token: admin.token,
      json: stationBody(1, { serial_number: "ST/1#", config: "nope", zone_id: "abc" }),
    });
    assert.deepEqual(Object.keys(await fieldErrorsOf(wrong)).sort(), [
      "config",
      "serial_number",
      "zone_id",
    ]);
    assert.deepEqual(await listDevices(t.deps.kv), []);
  },
);

adminTest(
  "POST /api/devices refuses a duplicate serial number or MQTT username (400)",
  async ({ t, admin }) => {
    await post(t, admin.token, "/api/devices", stationBody(1));
    const dupSerial = await call(t, "POST", "/api/devices", {
      token: admin.token,
      json: stationBody(2, { serial_number: "st-1" }),
    });
    assert.deepEqual(await fieldErrorsOf(dupSerial), {
      serial_number: "This serial number is already used by another device",
    });
    const b = stationBody(3);
    const dupUser = await call(t, "POST", "/api/devices", {
      token: admin.token,
      json: {
        ...b,
        config: { ...b.config, mqtt: { username: "station-1", password: "station-pw-0123456789" } },
      },
    });
    assert.deepEqual((await dupUser.json()).errors, {
      mqtt_username: "This MQTT username is already used by another device",
    });
    assert.equal((await listDevices(t.deps.kv)).length, 1);
  },
);

worldTest(
  "an MQTT password of 11 characters is refused with the field error in the admin's language and changes nothing; 12 is accepted",
  async (w) => {
    const { t } = w;
    const eleven = "abcdefghijk";
    const twelve = "abcdefghijkl";
    const messages = {
      es: "La contraseña MQTT debe tener al menos 12 caracteres",
      en: "The MQTT password must be at least 12 characters",
      de: "Das MQTT-Passwort muss mindestens 12 Zeichen lang sein",
    };
    const withPassword = (body: ReturnType<typeof stationBody>, password: string) => ({
      ...body,
      config: { ...body.config, mqtt: { ...body.config.mqtt, password } },
    });
    const before = await snapshot(t);
    for (const language of ["es", "en", "de"] as const) {
      const message = messages[language];
      const admin = await account(t, "admin", { language });
      const refused = [
        await call(t, "POST", "/api/devices", {
          token: admin.token,
          json: withPassword(stationBody(30), eleven),
        }),
        await call(t, "PUT", `/api/devices/${w.station}`, {
          token: admin.token,
          json: withPassword(stationBody(1), eleven),
        }),
        await call(t, "POST", `/api/devices/${w.station}/sensors`, {
          token: admin.token,
          json: sensorBody("A3", "unit_3", null, eleven),
        }),
        await call(t, "PUT", `/api/devices/${w.station}/sensors/${w.sensor}`, {
          token: admin.token,
          json: sensorBody("A1", "unit_1", w.tenant.user.id, eleven),
        }),
      ];
      for (const res of refused) {
        assert.deepEqual(await fieldErrorsOf(res, res.url), { mqtt_password: message }, language);
      }
    }
    assert.equal(await snapshot(t), before, "nothing was written");

    const made = await post(
      t,
      w.admin.token,
      "/api/devices",
      withPassword(stationBody(31), twelve),
    );
    const edited = await call(t, "PUT", `/api/devices/${w.station}/sensors/${w.sensor}`, {
      token: w.admin.token,
      json: sensorBody("A1", "unit_1", w.tenant.user.id, twelve),
    });
    assert.equal(edited.status, 200);
    await edited.body?.cancel();
    for (const id of [made.id, w.sensor]) {
      assert.ok(
        await verifyMqttPassword(twelve, (await getDevice(t.deps.kv, id))!.mqtt_password_hash),
      );
    }
  },
);

worldTest(
  "PUT /api/devices/{id} edits a station; a blank password keeps the current one",
  async (w) => {
    const { t, admin } = w;
    const before = await getDevice(t.deps.kv, w.station);
    const b = stationBody(1, { name: "Renamed", station_id: "st_new" });
    const res = await call(t, "PUT", `/api/devices/${w.station}`, {
      token: admin.token,
      json: { ...b, config: { ...b.config, mqtt: { username: "station-1", password: "" } } },
    });
    assert.equal(res.status, 200);
    const s = await res.json();
    assert.equal(s.name, "Renamed");
    assert.equal(s.customer.full_name, "Carla Dueña", "the customer stays");
    const after = await getDevice(t.deps.kv, w.station);
    assert.equal(after!.mqtt_password_hash, before!.mqtt_password_hash);
    // Sensors follow the new station id.
    const sensor = await (await call(t, "GET", `/api/devices/${w.station}/sensors/${w.sensor}`, {
      token: admin.token,
    })).json();
    assert.equal(sensor.station_id, "st_new_A1");
    assert.equal((await getDevice(t.deps.kv, w.sensor))!.station_id, "st_new_A1");

    // A new password replaces it.
    await post(t, admin.token, "/api/devices", stationBody(9));
    const withPw = await call(t, "PUT", `/api/devices/${w.station}`, {
      token: admin.token,
      json: {
        ...b,
        config: { ...b.config, mqtt: { username: "station-1", password: "new-pass-0123456789" } },
      },
    });
    assert.equal(withPw.status, 200);
    await withPw.body?.cancel();
    assert.ok(
      await verifyMqttPassword(
        "new-pass-0123456789",
        (await getDevice(t.deps.kv, w.station))!.mqtt_password_hash,
      ),
    );

    // Removing a unit that has a sensor is refused; bad input writes nothing; unknown is 404.
    const snap = await snapshot(t);
    const noUnit = await call(t, "PUT", `/api/devices/${w.station}`, {
      token: admin.token,
      json: { ...b, config: { ...b.config, station: { ...b.config.station, units: [] } } },
    });
    assert.deepEqual(Object.keys(await fieldErrorsOf(noUnit)), ["units"]);
    const bad = await call(t, "PUT", `/api/devices/${w.station}`, {
      token: admin.token,
      json: { ...b, name: " " },
    });
    assert.deepEqual(await fieldErrorsOf(bad), { name: "Station name is required" });
    const taken = await call(t, "PUT", `/api/devices/${w.station}`, {
      token: admin.token,
      json: { ...b, serial_number: "ST-9" },
    });
    assert.equal(taken.status, 400);
    await taken.body?.cancel();
    assert.equal(await snapshot(t), snap);
    for (const path of [`/api/devices/999`, `/api/devices/${w.sensor}`, `/api/devices/x`]) {
      const r = await call(t, "PUT", path, { token: admin.token, json: b });
      assert.equal(r.status, 404, path);
      await r.body?.cancel();
    }
  },
);

worldTest("DELETE /api/devices/{id} refuses a station with sensors, then deletes it", async (w) => {
  const { t, admin } = w;
  const refused = await call(t, "DELETE", `/api/devices/${w.other}`, { token: admin.token });
  assert.equal(refused.status, 409);
  assert.equal(
    (await refused.json()).message,
    "Cannot delete station with active sensors. Please delete all sensors first.",
  );
  assert.ok(await getDevice(t.deps.kv, w.other));
  const delSensor = await call(t, "DELETE", `/api/devices/${w.other}/sensors/${w.otherSensor}`, {
    token: admin.token,
  });
  assert.equal(delSensor.status, 200);
  assert.equal((await delSensor.json()).message, "Sensor deleted successfully");
  const del = await call(t, "DELETE", `/api/devices/${w.other}`, { token: admin.token });
  assert.equal(del.status, 200);
  assert.equal((await del.json()).message, "Station deleted successfully");
  assert.equal(await getDevice(t.deps.kv, w.other), null);
  const again = await call(t, "DELETE", `/api/devices/${w.other}`, { token: admin.token });
  assert.equal(again.status, 404);
  await again.body?.cancel();
  // The serial number and MQTT username are free again.
  await post(t, admin.token, "/api/devices", stationBody(2));
});

worldTest(
  "sensors: create derives prefix and station id, validates verbatim, one sensor per unit",
  async (w) => {
    const { t, admin } = w;
    const res = await call(t, "POST", `/api/devices/${w.station}/sensors`, {
      token: admin.token,
      json: sensorBody("ShellyPro3EM-ABC", "unit_3", null, "sensor-pass-0123456789"),
    });
    assert.equal(res.status, 201);
    const s = await res.json();
    assert.equal(typeof s.id, "number");
    assert.equal(s.type, "sensor");
    assert.equal(s.parent_id, w.station);
    assert.equal(s.station_id, "station_1_ShellyPro3EM-ABC");
    assert.deepEqual(s.config.mqtt, {
      username: "mqtt-ShellyPro3EM-ABC",
      topic_prefix: "sensor/shellypro3em-abc",
    });
    assert.deepEqual(s.config.sensor, {
      unit_id: "unit_3",
      tenant_id: null,
      ip_address: "192.168.1.50",
    });
    assert.equal(s.customer.full_name, "Carla Dueña");

    const snap = await snapshot(t);
    const empty = await call(t, "POST", `/api/devices/${w.station}/sensors`, {
      token: admin.token,
      json: {},
    });
    assert.deepEqual(await fieldErrorsOf(empty), {
      name: "Sensor name is required",
      serial_number: "Serial number is required",
      mqtt_username: "MQTT username is required",
      mqtt_password: "MQTT password is required",
      unit_id: "Please assign the sensor to a unit",
      ip_address: "IP address is required for MQTT configuration",
    });
    const refusals: [unknown, Record<string, string>][] = [
      [sensorBody("Z1", "unit_1"), { unit_id: "This unit is already assigned to another sensor" }],
      [sensorBody("Z2", "unit_9"), { unit_id: "Unit not found in station configuration" }],
      [sensorBody("a1", "unit_3"), {
        serial_number: "This serial number is already used by another device",
      }],
      [sensorBody("Z3", "unit_3", w.customer.user.id), { tenant_id: "Choose an existing tenant" }],
      [
        {
          ...sensorBody("Z4", "unit_3"),
          config: {
            ...sensorBody("Z4", "unit_3").config,
            sensor: { unit_id: "unit_3", ip_address: "300.1.1.1" },
          },
        },
        { ip_address: "Enter a valid IP address" },
      ],
    ];
    for (const [json, errors] of refusals) {
      const r = await call(t, "POST", `/api/devices/${w.station}/sensors`, {
        token: admin.token,
        json,
      });
      assert.deepEqual(await fieldErrorsOf(r, JSON.stringify(json)), errors);
    }
    const noStation = await call(t, "POST", `/api/devices/${w.sensor}/sensors`, {
      token: admin.token,
      json: sensorBody("Z5", "unit_1"),
    });
    assert.equal(noStation.status, 404);
    assert.equal((await noStation.json()).message, "Station not found");
    assert.equal(await snapshot(t), snap);
  },
);

worldTest("PUT sensors/{id} edits a sensor, keeps a blank password, moves its unit", async (w) => {
  const { t, admin } = w;
  const before = (await getDevice(t.deps.kv, w.sensor))!;
  const body = sensorBody("A1-new", "unit_3", w.tenant.user.id, "");
  const res = await call(t, "PUT", `/api/devices/${w.station}/sensors/${w.sensor}`, {
    token: admin.token,
    json: body,
  });
  assert.equal(res.status, 200);
  const s = await res.json();
  assert.equal(s.serial_number, "A1-new");
  assert.equal(s.config.mqtt.topic_prefix, "sensor/a1-new");
  assert.equal(s.config.sensor.unit_id, "unit_3");
  const after = (await getDevice(t.deps.kv, w.sensor))!;
  assert.equal(after.mqtt_password_hash, before.mqtt_password_hash);
  assert.equal(after.created_at, before.created_at);
  // unit_1 is free again, unit_2 is not.
  await post(t, admin.token, `/api/devices/${w.station}/sensors`, sensorBody("C1", "unit_1"));
  const taken = await call(t, "PUT", `/api/devices/${w.station}/sensors/${w.sensor}`, {
    token: admin.token,
    json: sensorBody("A1-new", "unit_2", null, ""),
  });
  assert.deepEqual(await fieldErrorsOf(taken), {
    unit_id: "This unit is already assigned to another sensor",
  });
  const wrongStation = await call(t, "PUT", `/api/devices/${w.other}/sensors/${w.sensor}`, {
    token: admin.token,
    json: body,
  });
  assert.equal(wrongStation.status, 404);
  await wrongStation.body?.cancel();
});

worldTest("GET /api/devices shows each role only its own devices", async (w) => {
  const { t } = w;
  const list = async (token: string, q = "") => {
    const res = await call(t, "GET", `/api/devices${q}`, { token });
    assert.equal(res.status, 200);
    return (await res.json()).devices;
  };
  assert.deepEqual(ids(await list(w.admin.token)), [
    w.station,
    w.other,
    w.sensor,
    w.sensor2,
    w.otherSensor,
  ]);
  assert.deepEqual(ids(await list(w.admin.token, "?type=station")), [w.station, w.other]);
  assert.deepEqual(
    ids(await list(w.admin.token, `?type=station&customer_id=${w.customer.user.id}`)),
    [w.station],
  );
  assert.deepEqual(
    ids(await list(w.admin.token, `?type=sensor&tenant_id=${w.tenant.user.id}`)),
    [w.sensor],
  );
  const mine = await list(w.customer.token);
  assert.deepEqual(ids(mine), [w.station, w.sensor, w.sensor2]);
  assert.ok(mine.every((d: { config: { mqtt?: unknown } }) => d.config.mqtt === undefined));
  assert.deepEqual(
    ids(await list(w.customer.token, `?customer_id=${w.customer.user.id + 99}`)),
    [],
  );
  const tenantSees = await list(w.tenant.token);
  assert.deepEqual(ids(tenantSees), [w.station, w.sensor]);
  const basic = tenantSees.find((d: { id: number }) => d.id === w.station);
  assert.equal(basic.customer, null);
  assert.deepEqual(basic.config.station.ssrs, []);
  assert.deepEqual(basic.config.station.units.map((u: { id: string }) => u.id), ["unit_1"]);
  assert.deepEqual(ids(await list(w.tenant.token, "?type=sensor")), [w.sensor]);
  assert.deepEqual(ids(await list(w.tenant2.token)), [w.station, w.sensor2]);
  assert.ok(!JSON.stringify(await list(w.tenant2.token)).includes("A1"));
  const bad = await call(t, "GET", "/api/devices?type=meter&customer_id=x", {
    token: w.admin.token,
  });
  assert.deepEqual(Object.keys(await fieldErrorsOf(bad)).sort(), ["customer_id", "type"]);
});

worldTest("GET /api/devices/{id} and sensors: 404 for what the caller may not see", async (w) => {
  const { t } = w;
  const status = async (token: string, path: string) => {
    const res = await call(t, "GET", path, { token });
    await res.body?.cancel();
    return res.status;
  };
  const station = `/api/devices/${w.station}`;
  const sensor = `/api/devices/${w.station}/sensors/${w.sensor}`;
  assert.equal(await status(w.customer.token, station), 200);
  assert.equal(await status(w.customer.token, `/api/devices/${w.other}`), 404);
  assert.equal(await status(w.customer.token, sensor), 200);
  assert.equal(await status(w.tenant.token, station), 200);
  assert.equal(await status(w.tenant.token, sensor), 200);
  assert.equal(await status(w.tenant2.token, sensor), 404);
  assert.equal(await status(w.tenant2.token, `/api/devices/${w.sensor}`), 404);
  assert.equal(await status(w.tenant2.token, `/api/devices/${w.sensor}/status`), 404);
  assert.equal(await status(w.tenant.token, `/api/devices/${w.other}/sensors`), 404);
  assert.equal(await status(w.admin.token, `/api/devices/${w.other}/sensors/${w.sensor}`), 404);
  assert.equal(await status(w.admin.token, "/api/devices/12345"), 404);
  const sensors = await (await call(t, "GET", `${station}/sensors`, { token: w.tenant.token }))
    .json();
  assert.deepEqual(ids(sensors.sensors), [w.sensor]);
  const all = await (await call(t, "GET", `${station}/sensors`, { token: w.customer.token }))
    .json();
  assert.deepEqual(ids(all.sensors), [w.sensor, w.sensor2]);
  const one = await (await call(t, "GET", sensor, { token: w.customer.token })).json();
  assert.equal(one.tenant.full_name, "Tina Tenant");
  assert.equal(one.config.mqtt, undefined);
});

worldTest("stats, statuses and status follow status changes and visibility", async (w) => {
  const { t } = w;
  const kv = t.deps.kv;
  await markOnline(kv, w.station, 1000);
  await markOnline(kv, w.sensor, 1000);
  await markOnline(kv, w.sensor2, 1000);
  const stats = async (token: string) =>
    await (await call(t, "GET", "/api/devices/stats", { token })).json();
  assert.deepEqual(await stats(w.admin.token), {
    stationCount: 2,
    sensorCount: 3,
    onlineCount: 3,
    unitCount: 6,
  });
  assert.deepEqual(await stats(w.customer.token), {
    stationCount: 1,
    sensorCount: 2,
    onlineCount: 3,
    unitCount: 3,
  });
  assert.deepEqual(await stats(w.tenant.token), {
    stationCount: 1,
    sensorCount: 1,
    onlineCount: 2,
    unitCount: 1,
  });
  const effective = async () =>
    (await (await call(t, "GET", `/api/devices/${w.station}`, { token: w.admin.token })).json())
      .status;
  assert.equal(await effective(), "online");
  await markOffline(kv, w.station, 2000, "will", []);
  assert.equal(await effective(), "alarm");
  await markOffline(kv, w.sensor2, 2000, "silence", []);
  assert.equal(await effective(), "error");

  const res = await call(t, "POST", "/api/devices/statuses", {
    token: w.tenant.token,
    json: { deviceIds: [w.sensor, "a2", w.station, "B1", "nope"] },
  });
  assert.equal(res.status, 200);
  assert.deepEqual((await res.json()).statuses, {
    A1: { status: "online", last_seen: 1000 },
    "ST-1": { status: "offline", last_seen: 1000 },
  });
  const asAdmin = await (await call(t, "POST", "/api/devices/statuses", {
    token: w.admin.token,
    json: { deviceIds: ["a2", w.otherSensor] },
  })).json();
  assert.deepEqual(asAdmin.statuses, {
    A2: { status: "offline", last_seen: 1000 },
    B1: { status: "unknown", last_seen: null },
  });
  const bad = await call(t, "POST", "/api/devices/statuses", {
    token: w.admin.token,
    json: { deviceIds: "A1" },
  });
  assert.equal(bad.status, 400);
  await bad.body?.cancel();
  const one = await call(t, "GET", `/api/devices/${w.sensor}/status`, { token: w.tenant.token });
  assert.deepEqual(await one.json(), { status: "online", last_seen: 1000 });
});

worldTest("assign and remove customer and tenant change what they see", async (w) => {
  const { t, admin } = w;
  const seen = async (token: string) =>
    ids((await (await call(t, "GET", "/api/devices", { token })).json()).devices);
  const assigned = await post(t, admin.token, "/api/devices/assign-customer", {
    customer_id: w.customer.user.id,
    station_ids: [w.other],
  });
  assert.deepEqual(assigned, { message: "Customer assigned successfully", updated: 1 });
  assert.deepEqual(await seen(w.customer.token), [
    w.station,
    w.other,
    w.sensor,
    w.sensor2,
    w.otherSensor,
  ]);
  await post(t, admin.token, `/api/devices/remove-customer/${w.station}`, {});
  assert.deepEqual(await seen(w.customer.token), [w.other, w.otherSensor]);

  await post(t, admin.token, "/api/devices/assign-tenant", {
    tenant_id: w.tenant2.user.id,
    sensor_ids: [w.otherSensor],
  });
  assert.deepEqual(await seen(w.tenant2.token), [w.station, w.other, w.sensor2, w.otherSensor]);
  const units =
    (await (await call(t, "GET", `/api/devices/${w.other}`, { token: admin.token })).json())
      .config.station.units;
  assert.equal(units[0].tenant_id, w.tenant2.user.id, "the unit's tenant follows its sensor");
  await post(t, admin.token, `/api/devices/remove-tenant/${w.sensor2}`, {});
  assert.deepEqual(await seen(w.tenant2.token), [w.other, w.otherSensor]);
  assert.equal((await getDevice(t.deps.kv, w.sensor2))!.config.sensor!.tenant_id, null);

  const snap = await snapshot(t);
  const refusals: [string, unknown, number][] = [
    [
      "/api/devices/assign-customer",
      { customer_id: w.tenant.user.id, station_ids: [w.station] },
      400,
    ],
    [
      "/api/devices/assign-customer",
      { customer_id: w.customer.user.id, station_ids: [w.sensor] },
      400,
    ],
    ["/api/devices/assign-customer", { customer_id: "x", station_ids: "y" }, 400],
    ["/api/devices/assign-tenant", { tenant_id: w.customer.user.id, sensor_ids: [w.sensor] }, 400],
    ["/api/devices/assign-tenant", { tenant_id: w.tenant.user.id, sensor_ids: [w.station] }, 400],
    ["/api/devices/assign-tenant", {}, 400],
    [`/api/devices/remove-customer/${w.sensor}`, {}, 404],
    [`/api/devices/remove-tenant/${w.station}`, {}, 404],
  ];
  for (const [path, json, want] of refusals) {
    const r = await call(t, "POST", path, { token: admin.token, json });
    assert.equal(r.status, want, `${path} ${JSON.stringify(json)}`);
    await r.body?.cancel();
  }
  assert.equal(await snapshot(t), snap);
});

worldTest(
  "registering with a code that lists a unit makes the tenant that sensor's tenant",
  async (w) => {
    const { t } = w;
    await seedAccessCode(t.deps.kv, "UNTS2345", "user", {
      assignments: { stations: [], units: [`${w.otherSensor}:unit_1`, `${w.sensor}:unit_9`] },
    });
    await seedAccessCode(t.deps.kv, "STAT2345", "customer", {
      assignments: { stations: [w.other], units: [] },
    });
    const reg = async (email: string, accessCode: string) => {
      const res = await call(t, "POST", "/api/auth/register", {
        json: {
          email,
          password: "secret123",
          full_name: "Nueva Persona",
          phone: "+525512345678",
          accessCode,
          role: "user",
        },
      });
      assert.equal(res.status, 201, await res.clone().text());
      await res.body?.cancel();
    };
    await reg("nuevo@test.mx", "UNTS2345");
    const newTenant = await getUserId(t, "nuevo@test.mx");
    const sensor = (await getDevice(t.deps.kv, w.otherSensor))!;
    assert.equal(sensor.tenant_id, newTenant);
    assert.equal(sensor.config.sensor!.tenant_id, newTenant);
    assert.equal(
      (await getDevice(t.deps.kv, w.sensor))!.tenant_id,
      w.tenant.user.id,
      "stale unit skipped",
    );
    await reg("owner@test.mx", "STAT2345");
    const owner = await getUserId(t, "owner@test.mx");
    assert.equal((await getDevice(t.deps.kv, w.other))!.customer_id, owner);
    assert.equal((await getUser(t.deps.kv, owner))!.role, "customer");
  },
);

async function getUserId(t: TestApp, email: string): Promise<number> {
  return (await findUserByEmail(t.deps.kv, email))!.id;
}

worldTest("the Create Access Code page offers real stations and units", async (w) => {
  const res = await call(w.t, "GET", "/admin/access-codes/create", {
    cookie: `token=${w.admin.token}`,
  });
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.ok(html.includes("Residencial 1 (ST-1)"), "station option");
  assert.ok(html.includes(`${w.sensor}:unit_1`), "unit option value");
  assert.ok(html.includes("Depto 101"), "unit name");
});

worldTest("device writes are admin only (403) and anonymous calls are 401", async (w) => {
  const { t } = w;
  for (const token of [w.customer.token, w.tenant.token]) {
    for (
      const [method, path] of [
        ["POST", "/api/devices"],
        ["PUT", `/api/devices/${w.station}`],
        ["DELETE", `/api/devices/${w.other}`],
        ["POST", `/api/devices/${w.station}/sensors`],
        ["DELETE", `/api/devices/${w.station}/sensors/${w.sensor}`],
        ["POST", "/api/devices/assign-tenant"],
      ] as const
    ) {
      const res = await call(t, method, path, { token, json: {} });
      assert.equal(res.status, 403, `${method} ${path}`);
      await res.body?.cancel();
    }
  }
  const anon = await call(t, "GET", "/api/devices");
  assert.equal(anon.status, 401);
  await anon.body?.cancel();
  assert.equal((await listDevices(t.deps.kv)).length, 5);
});
