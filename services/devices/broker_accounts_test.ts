import assert from "node:assert/strict";
import { generateMqttPassword } from "./broker_accounts.ts";
import {
  MQTT_PASSWORD_ALPHABET,
  MQTT_PASSWORD_MIN_LENGTH,
  stationBodySchema,
  validateDeviceBody,
} from "../../core/device_rules.ts";

Deno.test("generateMqttPassword() draws passwords of at least 16 characters, from the alphabet, all different", () => {
  const drawn = Array.from({ length: 2000 }, () => generateMqttPassword());
  for (const pw of drawn) {
    assert.ok(pw.length >= 16, pw);
    assert.ok([...pw].every((ch) => MQTT_PASSWORD_ALPHABET.includes(ch)), pw);
  }
  assert.equal(new Set(drawn).size, drawn.length, "no password drawn twice");
  // Every character of the alphabet turns up: the draw covers it, not a part of it.
  assert.equal(new Set(drawn.join("")).size, MQTT_PASSWORD_ALPHABET.length);
  assert.equal(generateMqttPassword(32).length, 32);
});

Deno.test("a generated MQTT password passes the device password rule", () => {
  const password = generateMqttPassword();
  assert.ok(password.length >= MQTT_PASSWORD_MIN_LENGTH);
  const res = validateDeviceBody(stationBodySchema("create"), {
    name: "S",
    location: JSON.stringify({ city: "Monterrey", state: "NL", country: "MX" }),
    serial_number: "ST-1",
    station_id: "st_1",
    config: {
      mqtt: { username: "st-1", password },
      station: { ssrs: [{ id: "ssr_1", gpio_pin: 0 }], units: [] },
    },
  });
  assert.ok(res.ok && res.data.config.mqtt.password === password);
});
