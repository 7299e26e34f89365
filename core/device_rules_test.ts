import assert from "node:assert/strict";
import {
  DEVICE_MESSAGE_PARAMS,
  deviceField,
  effectiveStationStatus,
  GENERATED_MQTT_PASSWORD_LENGTH,
  isIpAddress,
  LOCATION_FIELDS,
  locationJson,
  MQTT_PASSWORD_ALPHABET,
  MQTT_PASSWORD_MIN_LENGTH,
  mqttPasswordFromBytes,
  parseLocation,
  sensorBodySchema,
  ssrUnitProblems,
  stationBodySchema,
  statusesSchema,
  validateDeviceBody,
} from "./device_rules.ts";
import type { DeviceStatus, SSR } from "./devices.ts";

const ssr = (n: number, pin = n - 1): SSR => ({
  id: `ssr_${n}`,
  name: `SSR ${n}`,
  type: "normal",
  gpio_pin: pin,
});

const STATION = {
  name: "Las Palmas",
  location: JSON.stringify({ city: "Monterrey", state: "Nuevo León", country: "México" }),
  serial_number: "ST-000123",
  station_id: "station_01",
  zone_id: null,
  type: "station",
  config: {
    mqtt: { username: "st-123", password: "station-pw-0123456789" },
    station: {
      ssrs: [{ id: "ssr_1", gpio_pin: 0 }],
      units: [{ id: "unit_1", ssr_id: "ssr_1" }],
    },
  },
};

Deno.test("effectiveStationStatus() follows spec 000 section 4 case by case", () => {
  const cases: [DeviceStatus, DeviceStatus[], DeviceStatus][] = [
    ["offline", [], "offline"],
    ["unknown", [], "unknown"],
    ["online", ["online", "online"], "online"],
    ["online", ["online", "offline"], "error"],
    ["offline", ["offline"], "error"],
    ["unknown", ["offline", "online"], "error"],
    ["offline", ["online", "online"], "alarm"],
    ["unknown", ["online"], "unknown"],
    ["online", ["unknown"], "online"],
    ["error", ["online"], "error"],
  ];
  for (const [own, sensors, want] of cases) {
    assert.equal(effectiveStationStatus(own, sensors), want, `${own} + ${sensors.join(",")}`);
  }
});

Deno.test("parseLocation() reads JSON strings and objects; plain text is the city", () => {
  assert.equal(parseLocation("Monterrey").city, "Monterrey");
  assert.equal(parseLocation("  ").city, "");
  assert.equal(parseLocation(null).city, "");
  assert.equal(parseLocation("{not json").city, "{not json");
  const loc = parseLocation(
    JSON.stringify({ city: " Guadalajara ", postal_code: 44100, extra: "x", state: 5 > 3 }),
  );
  assert.equal(loc.city, "Guadalajara");
  assert.equal(loc.postal_code, "44100");
  assert.equal(loc.state, "", "non-text values are dropped");
  assert.ok(!("extra" in loc));
  assert.deepEqual(parseLocation({ country: "MX" }).country, "MX");
  assert.deepEqual(parseLocation(locationJson(loc)), loc, "round trip");
  assert.deepEqual(Object.keys(JSON.parse(locationJson(loc))), [...LOCATION_FIELDS], "form order");
});

Deno.test("ssrUnitProblems() holds 1 to 12 SSRs, pins up to 19, units on existing SSRs", () => {
  assert.deepEqual(ssrUnitProblems([ssr(1)], [{ id: "unit_1", ssr_id: "ssr_1" }]), {});
  assert.deepEqual(ssrUnitProblems([], []), {
    ssrs: "devices.station_form.validation.ssr_count_range",
  });
  const twelve = Array.from({ length: 12 }, (_, i) => ssr(i + 1));
  assert.deepEqual(ssrUnitProblems(twelve, []), {});
  assert.deepEqual(ssrUnitProblems([...twelve, ssr(13)], []), {
    ssrs: "devices.station_form.validation.max_ssrs",
  });
  assert.deepEqual(ssrUnitProblems([ssr(1, 19)], []), {});
  assert.deepEqual(ssrUnitProblems([ssr(1, 20)], []), {
    ssrs: "devices.station_form.validation.max_gpio",
  });
  assert.deepEqual(ssrUnitProblems([ssr(1, 4), ssr(2, 4)], []), {
    ssrs: "devices.validation.gpio_duplicate",
  });
  assert.deepEqual(ssrUnitProblems([ssr(1), ssr(1, 5)], []), {
    ssrs: "devices.validation.ssr_duplicate",
  });
  assert.deepEqual(ssrUnitProblems([ssr(1)], [{ id: "unit_1", ssr_id: "ssr_2" }]), {
    units: "devices.station_form.validation.units_existing_ssrs",
  });
  assert.deepEqual(
    ssrUnitProblems([ssr(1)], [{ id: "unit_1", ssr_id: "ssr_1" }, {
      id: "unit_1",
      ssr_id: "ssr_1",
    }]),
    { units: "devices.validation.unit_duplicate" },
  );
});

Deno.test("stationBodySchema() normalizes a valid body and names SSRs and units by default", () => {
  const res = validateDeviceBody(stationBodySchema("create"), STATION);
  assert.ok(res.ok);
  assert.deepEqual(res.data.config.station.ssrs, [
    { id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 },
  ]);
  assert.deepEqual(res.data.config.station.units, [
    { id: "unit_1", name: "Unit 1", ssr_id: "ssr_1" },
  ]);
  assert.equal(res.data.location.city, "Monterrey");
  assert.equal(res.data.zone_id, null);
  const withZone = validateDeviceBody(stationBodySchema("create"), { ...STATION, zone_id: "4" });
  assert.ok(withZone.ok && withZone.data.zone_id === 4);
});

Deno.test("stationBodySchema() needs the MQTT password on create only", () => {
  const noPassword = { ...STATION, config: { ...STATION.config, mqtt: { username: "u" } } };
  const create = validateDeviceBody(stationBodySchema("create"), noPassword);
  assert.deepEqual(create.ok ? null : create.errors, {
    mqtt_password: "devices.station_form.validation.mqtt_password_required",
  });
  const update = validateDeviceBody(stationBodySchema("update"), noPassword);
  assert.ok(update.ok && update.data.config.mqtt.password === "");
  const other = validateDeviceBody(stationBodySchema("update"), { ...STATION, type: "sensor" });
  assert.deepEqual(other.ok ? null : other.errors, { type: "validation.invalid" });
});

/** STATION with `password` as its MQTT password. */
const withPassword = (password: string) => ({
  ...STATION,
  config: { ...STATION.config, mqtt: { username: "u", password } },
});

Deno.test("stationBodySchema() refuses an MQTT password under 12 characters, on create and on update", () => {
  assert.equal(MQTT_PASSWORD_MIN_LENGTH, 12);
  assert.equal(DEVICE_MESSAGE_PARAMS.min, 12);
  for (const mode of ["create", "update"] as const) {
    for (const short of ["x", "a".repeat(11)]) {
      const res = validateDeviceBody(stationBodySchema(mode), withPassword(short));
      assert.deepEqual(res.ok ? null : res.errors, {
        mqtt_password: "devices.validation.mqtt_password_too_short",
      }, `${mode} with ${short.length} characters`);
    }
    const twelve = validateDeviceBody(stationBodySchema(mode), withPassword("a".repeat(12)));
    assert.ok(twelve.ok && twelve.data.config.mqtt.password === "a".repeat(12), mode);
  }
  const long = validateDeviceBody(stationBodySchema("create"), withPassword("a".repeat(129)));
  assert.deepEqual(long.ok ? null : long.errors, { mqtt_password: "validation.too_long" });
});

Deno.test("sensorBodySchema() refuses an MQTT password under 12 characters", () => {
  const body = (password: string) => ({
    name: "M",
    serial_number: "shellypro3em-a1b2c3",
    config: {
      mqtt: { username: "m", password },
      sensor: { unit_id: "unit_1", ip_address: "10.0.0.2" },
    },
  });
  const short = validateDeviceBody(sensorBodySchema("update"), body("elevenchars"));
  assert.deepEqual(short.ok ? null : short.errors, {
    mqtt_password: "devices.validation.mqtt_password_too_short",
  });
  assert.ok(validateDeviceBody(sensorBodySchema("create"), body("twelve-chars")).ok);
});

Deno.test("mqttPasswordFromBytes() maps bytes onto the alphabet without bias and says when bytes run out", () => {
  const n = MQTT_PASSWORD_ALPHABET.length;
  assert.equal(new Set(MQTT_PASSWORD_ALPHABET).size, n, "no repeated characters");
  assert.doesNotMatch(MQTT_PASSWORD_ALPHABET, /[0O1lI]/);
  const bytes = Uint8Array.from({ length: 40 }, (_, i) => i);
  const pw = mqttPasswordFromBytes(bytes);
  assert.equal(pw.length, GENERATED_MQTT_PASSWORD_LENGTH);
  assert.ok(GENERATED_MQTT_PASSWORD_LENGTH >= 16);
  assert.equal(pw, MQTT_PASSWORD_ALPHABET.slice(0, GENERATED_MQTT_PASSWORD_LENGTH));
  // Bytes in the uneven top range are skipped, not folded onto the first characters.
  const top = 256 - (256 % n);
  assert.equal(mqttPasswordFromBytes(Uint8Array.of(top, 255, 1, n + 2), 2), "BC");
  assert.throws(() => mqttPasswordFromBytes(Uint8Array.of(255, 255, 0), 2), RangeError);
});

Deno.test("sensorBodySchema() uses the sensor form's messages", () => {
  const res = validateDeviceBody(sensorBodySchema("create"), {
    name: " ",
    serial_number: "",
    config: { mqtt: { username: "", password: "" }, sensor: { unit_id: null, ip_address: "" } },
  });
  assert.deepEqual(res.ok ? null : res.errors, {
    name: "devices.sensor_form.validation.name_required",
    serial_number: "devices.sensor_form.validation.serial_required",
    mqtt_username: "devices.sensor_form.validation.mqtt_username_required",
    mqtt_password: "devices.sensor_form.validation.mqtt_password_required",
    unit_id: "devices.sensor_form.validation.unit_required",
    ip_address: "devices.sensor_form.validation.ip_required",
  });
  const ok = validateDeviceBody(sensorBodySchema("update"), {
    name: "M",
    serial_number: "shellypro3em-a1b2c3",
    config: {
      mqtt: { username: "m" },
      sensor: { unit_id: "unit_2", tenant_id: "7", ip_address: "fe80::1" },
    },
  });
  assert.ok(ok.ok);
  assert.equal(ok.data.config.sensor.tenant_id, 7);
  assert.equal(ok.data.config.mqtt.password, "");
});

Deno.test("isIpAddress() accepts IPv4 and IPv6 and refuses the rest", () => {
  for (const ip of ["192.168.1.50", "10.0.0.1", "::1", "fe80::1ff:fe23:4567:890a"]) {
    assert.ok(isIpAddress(ip), ip);
  }
  for (const ip of ["256.1.1.1", "1.2.3", "shelly.local", "1.2.3.4.5", "01.2.3.4"]) {
    assert.ok(!isIpAddress(ip), ip);
  }
});

Deno.test("deviceField() flattens issue paths into form fields", () => {
  assert.equal(deviceField([]), "_");
  assert.equal(deviceField(["name"]), "name");
  assert.equal(deviceField(["location", "city"]), "city");
  assert.equal(deviceField(["config", "mqtt", "password"]), "mqtt_password");
  assert.equal(deviceField(["config", "station", "ssrs", 3, "gpio_pin"]), "ssrs");
  assert.equal(deviceField(["config", "sensor", "ip_address"]), "ip_address");
  assert.equal(deviceField(["config"]), "config");
});

Deno.test("statusesSchema() takes ids and serial numbers, at most 500", () => {
  assert.ok(statusesSchema.safeParse({ deviceIds: [1, "ST-1"] }).success);
  assert.ok(!statusesSchema.safeParse({ deviceIds: [0] }).success);
  assert.ok(!statusesSchema.safeParse({ deviceIds: "ST-1" }).success);
  assert.ok(!statusesSchema.safeParse({ deviceIds: Array(501).fill(1) }).success);
});
