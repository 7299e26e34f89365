import assert from "node:assert/strict";
import {
  addBusinessDays,
  bimonthlyPeriod,
  defaultPeriod,
  isPeriod,
  parsePeriod,
  periodDays,
  periodOptions,
} from "./periods.ts";

Deno.test("parsePeriod() reads monthly YYYY-MM", () => {
  assert.deepEqual(parsePeriod("2026-01"), {
    kind: "monthly",
    year: 2026,
    months: [1],
    text: "2026-01",
  });
});

Deno.test("parsePeriod() accepts exactly the six bimonthly pairs", () => {
  for (const pair of ["01-02", "03-04", "05-06", "07-08", "09-10", "11-12"]) {
    assert.equal(parsePeriod(`2026-${pair}`).kind, "bimonthly");
  }
  for (const bad of ["2026-02-03", "2026-12-01", "2026-01-03", "2026-13", "2026-00", "26-01", ""]) {
    assert.throws(() => parsePeriod(bad), RangeError, bad);
    assert.equal(isPeriod(bad), false);
  }
  assert.throws(() => parsePeriod(202601), TypeError);
});

Deno.test("periodDays() lists every day of the months, leap years included", () => {
  assert.equal(periodDays(parsePeriod("2024-01-02")).length, 31 + 29);
  assert.equal(periodDays(parsePeriod("2026-01-02")).length, 31 + 28);
  assert.deepEqual(parsePeriod("2026-11-12").months, [11, 12]);
});

Deno.test("periodOptions() lists monthly December first and bimonthly Nov-Dec down to Jan-Feb", () => {
  const monthly = periodOptions("monthly", 2026);
  assert.equal(monthly.length, 12);
  assert.equal(monthly[0], "2026-12");
  assert.equal(monthly[11], "2026-01");
  assert.deepEqual(periodOptions("bimonthly", 2026), [
    "2026-11-12",
    "2026-09-10",
    "2026-07-08",
    "2026-05-06",
    "2026-03-04",
    "2026-01-02",
  ]);
});

Deno.test("defaultPeriod() is the current month or pair this year, else December or Nov-Dec", () => {
  const today = { year: 2026, month: 4, day: 9 };
  assert.equal(defaultPeriod("monthly", 2026, today), "2026-04");
  assert.equal(defaultPeriod("bimonthly", 2026, today), "2026-03-04");
  assert.equal(defaultPeriod("monthly", 2025, today), "2025-12");
  assert.equal(defaultPeriod("bimonthly", 2025, today), "2025-11-12");
  assert.equal(bimonthlyPeriod(2026, 12), "2026-11-12");
});

Deno.test("addBusinessDays() skips weekends: 10 business days after a date", () => {
  // Monday 2026-11-02 → Monday 2026-11-16
  assert.deepEqual(addBusinessDays({ year: 2026, month: 11, day: 2 }), {
    year: 2026,
    month: 11,
    day: 16,
  });
  // Saturday 2026-11-21 → Friday 2026-12-04
  assert.deepEqual(addBusinessDays({ year: 2026, month: 11, day: 21 }, 10), {
    year: 2026,
    month: 12,
    day: 4,
  });
  // Friday 2026-12-25 crosses the year → Friday 2027-01-08
  assert.deepEqual(addBusinessDays({ year: 2026, month: 12, day: 25 }), {
    year: 2027,
    month: 1,
    day: 8,
  });
});

Deno.test("addBusinessDays() rejects impossible dates and bad counts", () => {
  assert.throws(() => addBusinessDays({ year: 2026, month: 2, day: 30 }), RangeError);
  assert.throws(() => addBusinessDays({ year: 2026, month: 1, day: 1 }, -1), RangeError);
});

Deno.test("periodOptions() with today offers no period that has not started", () => {
  const today = { year: 2026, month: 11, day: 28 };
  assert.deepEqual(periodOptions("monthly", 2026, today).slice(0, 2), ["2026-11", "2026-10"]);
  assert.equal(periodOptions("monthly", 2026, today).length, 11);
  assert.deepEqual(periodOptions("bimonthly", 2026, { ...today, month: 10 })[0], "2026-09-10");
  assert.equal(periodOptions("monthly", 2025, today).length, 12);
});
