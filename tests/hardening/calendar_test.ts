/** Dates and months are real calendar days from 1970: anything else is a 400, never a 500. */
import assert from "node:assert/strict";
import { account, call, testApp } from "../_helpers.ts";
import { isRealDate, isRealMonth } from "../../core/local_time.ts";
import { isPeriod } from "../../core/periods.ts";

Deno.test("isRealDate and isRealMonth accept only real days and months from 1970", () => {
  for (const ok of ["2026-02-28", "2024-02-29", "1970-01-01", "2026-12-31"]) {
    assert.ok(isRealDate(ok), ok);
  }
  for (const bad of ["2026-02-30", "2025-02-29", "2026-04-31", "1969-12-31", "0000-01-01"]) {
    assert.equal(isRealDate(bad), false, bad);
  }
  assert.ok(isRealMonth("1970-01"));
  assert.equal(isRealMonth("0000-01"), false);
  assert.equal(isRealMonth("1969-12"), false);
  assert.equal(isPeriod("1969-11-12"), false);
  assert.equal(isPeriod("0000-01"), false);
});

Deno.test("the measurement API answers 400 for days that do not exist, not 500 or a rollover", async () => {
  const t = await testApp();
  const admin = await account(t, "admin");
  for (
    const path of [
      "/api/measurements?date=2026-02-30",
      "/api/measurements?date=1969-12-31",
      "/api/measurements/1/summary?month=0000-01",
      "/api/analytics/uptime/1?month=1900-01",
      "/api/analytics/delta?sensorId=1&startDate=2026-02-30&endDate=2026-03-05",
      "/api/analytics/delta?sensorId=1&startDate=2026-02-30T00:00:00Z&endDate=2026-03-05",
    ]
  ) {
    const res = await call(t, "GET", path, { token: admin.token });
    assert.equal(res.status, 400, path);
    await res.body?.cancel();
  }
  t.close();
});
