/**
 * The Mexican federal holidays (core/holidays.ts) and the due date of a bill that skips them
 * (core/bill.ts `dueDateAfter`, legal terms: payable within 10 business days). The expected
 * dates below were worked out by hand on a calendar: 2026 starts on a Thursday, so its first
 * Monday of February is the 2nd and its third Mondays of March and November are the 16th;
 * 2030 is a year a federal executive takes office (2024 + 6), so 1 October is a holiday.
 */
import assert from "node:assert/strict";
import { isBusinessDay, isMexicanHoliday, mexicanHolidays } from "./holidays.ts";
import { dueDateAfter } from "./payment.ts";
import { type DateParts, formatDate } from "./periods.ts";

const d = (text: string): DateParts => {
  const [year, month, day] = text.split("-").map(Number);
  return { year, month, day };
};

Deno.test("the federal holidays of 2026 are 1 Jan, 2 Feb, 16 Mar, 1 May, 16 Sep, 16 Nov and 25 Dec", () => {
  assert.deepEqual(mexicanHolidays(2026).map(formatDate), [
    "2026-01-01",
    "2026-02-02",
    "2026-03-16",
    "2026-05-01",
    "2026-09-16",
    "2026-11-16",
    "2026-12-25",
  ]);
});

Deno.test("2030 (a change of federal executive) adds 1 October; 2026 and 2027 do not have it", () => {
  assert.deepEqual(mexicanHolidays(2030).map(formatDate), [
    "2030-01-01",
    "2030-02-04",
    "2030-03-18",
    "2030-05-01",
    "2030-09-16",
    "2030-10-01",
    "2030-11-18",
    "2030-12-25",
  ]);
  assert.equal(isMexicanHoliday(d("2030-10-01")), true);
  assert.equal(isMexicanHoliday(d("2024-10-01")), true);
  assert.equal(isMexicanHoliday(d("2026-10-01")), false);
  assert.equal(isMexicanHoliday(d("2027-10-01")), false);
  // Tuesday 1 October 2030 is a weekday that is not a business day.
  assert.equal(isBusinessDay(d("2030-10-01")), false);
  assert.equal(isBusinessDay(d("2030-10-02")), true);
});

Deno.test("a business day is a weekday that is not a holiday", () => {
  assert.equal(isBusinessDay(d("2026-11-13")), true); // Friday
  assert.equal(isBusinessDay(d("2026-11-14")), false); // Saturday
  assert.equal(isBusinessDay(d("2026-11-15")), false); // Sunday
  assert.equal(isBusinessDay(d("2026-11-16")), false); // Monday, Revolution Day (3rd Monday)
  assert.equal(isBusinessDay(d("2026-11-17")), true); // Tuesday
  assert.equal(isBusinessDay(d("2026-11-20")), true); // the calendar date of the holiday is not it
  assert.equal(isBusinessDay(d("2026-12-25")), false); // Friday, Christmas
  assert.equal(isBusinessDay(d("2027-01-01")), false); // Friday, New Year
  assert.equal(isBusinessDay(d("2026-02-02")), false); // Monday, Constitution Day
  assert.equal(isBusinessDay(d("2026-02-05")), true); // its calendar date is a working day
});

Deno.test("a bill finalized Friday 2026-11-13 is due Monday 2026-11-30: Monday 16 Nov does not count", () => {
  // 17, 18, 19, 20, 23, 24, 25, 26, 27, 30 — without the holiday it would be Friday the 27th.
  assert.equal(dueDateAfter(d("2026-11-13")), "2026-11-30");
});

Deno.test("a bill finalized Friday 2026-12-18 is due 2027-01-05: Christmas and New Year do not count", () => {
  // 21, 22, 23, 24, (25 off), 28, 29, 30, 31, (1 Jan off), 4, 5 — weekdays only would give 1 Jan.
  assert.equal(dueDateAfter(d("2026-12-18")), "2027-01-05");
});

Deno.test("a bill finalized on a Saturday counts from the next business day; 1 Oct 2030 is skipped", () => {
  // Saturday 2026-01-31: Monday 2 Feb is a holiday, so 3, 4, 5, 6, 9, 10, 11, 12, 13, 16.
  assert.equal(dueDateAfter(d("2026-01-31")), "2026-02-16");
  // Friday 2030-09-20: 23, 24, 25, 26, 27, 30, (1 Oct off), 2, 3, 4, 7.
  assert.equal(dueDateAfter(d("2030-09-20")), "2030-10-07");
  // An ordinary fortnight: Thursday 2026-12-03 → Thursday 2026-12-17.
  assert.equal(dueDateAfter(d("2026-12-03")), "2026-12-17");
});
