import assert from "node:assert/strict";
import { moveIn, moveOut, parseInstant, periodParts, type Tenancy, tenancyAt } from "./tenancy.ts";
import { dayStart } from "./local_time.ts";

const OFFSET = -360;
const at = (date: string) => dayStart(date, OFFSET);
const t = (tenant_id: number, from: string, to: string | null, extra: Partial<Tenancy> = {}) => ({
  tenant_id,
  from: at(from),
  to: to === null ? null : at(to),
  reading_from_kwh: null,
  reading_to_kwh: null,
  ...extra,
});
const same = (x: Tenancy) => x;
const sep = { from: at("2026-09-01"), to: at("2026-10-01") };

Deno.test("periodParts(): one part per tenancy and vacant stretch, covering the period exactly", () => {
  assert.deepEqual(periodParts([t(1, "2026-01-10", null)], sep), [
    { tenant_id: 1, from: sep.from, to: sep.to, reading_from_kwh: null, reading_to_kwh: null },
  ]);
  const parts = periodParts([
    t(1, "2026-01-10", "2026-09-10", { reading_to_kwh: 1500 }),
    t(2, "2026-09-20", null, { reading_from_kwh: 1620 }),
  ], sep);
  assert.deepEqual(
    parts.map((p) => [p.tenant_id, p.from, p.to, p.reading_from_kwh, p.reading_to_kwh]),
    [
      [1, sep.from, at("2026-09-10"), null, 1500],
      [null, at("2026-09-10"), at("2026-09-20"), null, null],
      [2, at("2026-09-20"), sep.to, 1620, null],
    ],
  );
  assert.deepEqual(periodParts([], sep).map((p) => p.tenant_id), [null]);
  assert.equal(tenancyAt([t(1, "2026-01-10", "2026-09-10")], at("2026-09-10")), null);
});

Deno.test("moveIn(): a newcomer ends the current tenancy; the same tenant may move their start back, not forward", () => {
  const a = [t(1, "2026-08-01", null)];
  const b = moveIn(a, same, 2, at("2026-09-16"), 1234.5);
  assert.ok(b.ok);
  assert.deepEqual(b.next, [
    t(1, "2026-08-01", "2026-09-16", { reading_to_kwh: 1234.5 }),
    t(2, "2026-09-16", null, { reading_from_kwh: 1234.5 }),
  ]);
  const back = moveIn(b.next, same, 2, at("2026-09-14"), null);
  assert.deepEqual(back, { ok: false, error: "overlap", until: at("2026-09-16") });
  assert.deepEqual(moveIn(b.next, same, 2, at("2026-09-20"), null), {
    ok: false,
    error: "later_start",
    since: at("2026-09-16"),
  });
  const earlier = moveIn([t(2, "2026-09-16", null)], same, 2, at("2026-09-01"), null);
  assert.ok(earlier.ok && earlier.changed);
  assert.deepEqual(earlier.next, [t(2, "2026-09-01", null)]);
  assert.deepEqual(moveIn(a, same, 2, at("2026-08-01"), null), {
    ok: false,
    error: "before_current",
    since: at("2026-08-01"),
  });
  const again = moveIn(a, same, 1, at("2026-08-01"), null);
  assert.ok(again.ok && !again.changed);
});

Deno.test("moveOut(): the current tenancy ends; nobody to move out, or a date before it began, is refused", () => {
  const out = moveOut([t(1, "2026-08-01", null)], same, at("2026-09-16"), 900);
  assert.ok(out.ok);
  assert.deepEqual(out.next, [t(1, "2026-08-01", "2026-09-16", { reading_to_kwh: 900 })]);
  assert.deepEqual(moveOut(out.next, same, at("2026-09-20"), null), {
    ok: false,
    error: "no_tenant",
  });
  assert.deepEqual(moveOut([t(1, "2026-08-01", null)], same, at("2026-07-01"), null), {
    ok: false,
    error: "before_current",
    since: at("2026-08-01"),
  });
});

Deno.test("parseInstant(): a date is its first instant in the business time zone; an ISO instant as given", () => {
  assert.equal(parseInstant("2026-09-16", OFFSET), Date.parse("2026-09-16T06:00:00Z"));
  assert.equal(
    parseInstant("2026-09-16T10:30:00-06:00", OFFSET),
    Date.parse("2026-09-16T16:30:00Z"),
  );
  for (const bad of ["2026-02-30", "16/09/2026", "2026-09-16T10:30", "", "tomorrow"]) {
    assert.equal(parseInstant(bad, OFFSET), null, bad);
  }
});
