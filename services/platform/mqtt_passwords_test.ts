import assert from "node:assert/strict";
import {
  hashMqttPassword,
  openMqttPassword,
  sealMqttPassword,
  verifyMqttPassword,
} from "./mqtt_passwords.ts";

const SECRET = "a-portal-secret-of-at-least-thirty-two-characters";

Deno.test("sealMqttPassword() output opens to the same password under the same secret", async () => {
  for (const password of ["meter-pass-1", "ñandú ✓ 电表", ""]) {
    const sealed = await sealMqttPassword(SECRET, password);
    assert.match(sealed, /^v1\./);
    assert.ok(!sealed.includes(password) || password === "");
    assert.equal(await openMqttPassword(SECRET, sealed), password);
  }
});

Deno.test("sealMqttPassword() uses a fresh IV, so sealing twice gives different strings", async () => {
  const a = await sealMqttPassword(SECRET, "same");
  const b = await sealMqttPassword(SECRET, "same");
  assert.notEqual(a, b);
  assert.equal(await openMqttPassword(SECRET, a), "same");
  assert.equal(await openMqttPassword(SECRET, b), "same");
});

Deno.test("openMqttPassword() refuses a sealed password altered in any byte", async () => {
  const sealed = await sealMqttPassword(SECRET, "meter-pass-1");
  const [version, iv, data] = sealed.split(".");
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  for (const i of [0, bytes.length - 1]) {
    const changed = bytes.slice();
    changed[i] ^= 0x01;
    const forged = `${version}.${iv}.${btoa(String.fromCharCode(...changed))}`;
    assert.equal(await openMqttPassword(SECRET, forged), null);
  }
  const ivBytes = Uint8Array.from(atob(iv), (c) => c.charCodeAt(0));
  ivBytes[3] ^= 0x80;
  const forgedIv = `${version}.${btoa(String.fromCharCode(...ivBytes))}.${data}`;
  assert.equal(await openMqttPassword(SECRET, forgedIv), null);
});

Deno.test("openMqttPassword() refuses a password sealed under another secret", async () => {
  const sealed = await sealMqttPassword(SECRET, "meter-pass-1");
  assert.equal(await openMqttPassword(SECRET + "x", sealed), null);
});

Deno.test("openMqttPassword() refuses malformed strings and unknown versions", async () => {
  const sealed = await sealMqttPassword(SECRET, "meter-pass-1");
  for (const bad of ["", "v1", "v1..", sealed.replace(/^v1/, "v2"), "v1.!!!.???", sealed + "."]) {
    assert.equal(await openMqttPassword(SECRET, bad), null, bad);
  }
});

Deno.test("hashMqttPassword() still verifies the password and refuses another one", async () => {
  const hash = await hashMqttPassword("meter-pass-1");
  assert.equal(await verifyMqttPassword("meter-pass-1", hash), true);
  assert.equal(await verifyMqttPassword("meter-pass-2", hash), false);
});
