import assert from "node:assert/strict";
import { certificateHealth, daysRemaining, healthMessageKey } from "./certificates.ts";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);

Deno.test("certificateHealth() is green from 30 days left, yellow under 30, red under 7", () => {
  assert.equal(certificateHealth(NOW + 365 * DAY, NOW), "green");
  assert.equal(certificateHealth(NOW + 30 * DAY, NOW), "green");
  assert.equal(certificateHealth(NOW + 30 * DAY - 1, NOW), "yellow");
  assert.equal(certificateHealth(NOW + 7 * DAY, NOW), "yellow");
  assert.equal(certificateHealth(NOW + 7 * DAY - 1, NOW), "red");
  assert.equal(certificateHealth(NOW + 1, NOW), "red");
  assert.equal(certificateHealth(NOW - DAY, NOW), "red");
});

Deno.test("daysRemaining() counts whole days and goes negative once expired", () => {
  assert.equal(daysRemaining(NOW + 365 * DAY, NOW), 365);
  assert.equal(daysRemaining(NOW + 2 * DAY - 1, NOW), 1);
  assert.equal(daysRemaining(NOW - 1, NOW), -1);
});

Deno.test("healthMessageKey() names the renew texts and the expired text", () => {
  assert.equal(healthMessageKey(NOW + 100 * DAY, NOW), "certificates.health.green");
  assert.equal(healthMessageKey(NOW + 20 * DAY, NOW), "certificates.health.yellow");
  assert.equal(healthMessageKey(NOW + 2 * DAY, NOW), "certificates.health.red");
  assert.equal(healthMessageKey(NOW - 2 * DAY, NOW), "certificates.health.expired");
});
