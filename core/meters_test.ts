import assert from "node:assert/strict";
import {
  implicitMeters,
  meterAt,
  meterSegments,
  metersOf,
  replacementReadings,
  replaceMeter,
} from "./meters.ts";
import { checkCounterReading, parseInstant, parseKwh, parseManualReading } from "./meter_inputs.ts";

const T = 1_000_000;
const replaced = [
  { serial: "OLD", from: -Infinity, to: T, first_kwh: null, last_kwh: 1500 },
  { serial: "NEW", from: T, to: null, first_kwh: 0.2, last_kwh: null },
];

Deno.test("meterSegments() cuts a range at each replacement, then to the windows", () => {
  assert.deepEqual(meterSegments(implicitMeters("A"), 10, 20), [{ serial: "A", from: 10, to: 20 }]);
  assert.deepEqual(meterSegments(replaced, 0, 2 * T), [
    { serial: "OLD", from: 0, to: T },
    { serial: "NEW", from: T, to: 2 * T },
  ]);
  assert.deepEqual(meterSegments(replaced, T, 2 * T), [{ serial: "NEW", from: T, to: 2 * T }]);
  // Windows (a tenant's tenancies), overlapping ones merged, empty ones and gaps left out.
  const windows = [{ from: T + 10, to: T + 20 }, { from: T - 50, to: T - 10 }, {
    from: T - 20,
    to: T + 5,
  }, { from: 7, to: 7 }];
  assert.deepEqual(meterSegments(replaced, 0, 2 * T, windows), [
    { serial: "OLD", from: T - 50, to: T },
    { serial: "NEW", from: T, to: T + 5 },
    { serial: "NEW", from: T + 10, to: T + 20 },
  ]);
  assert.deepEqual(meterSegments(replaced, 0, 2 * T, []), []);
});

Deno.test("metersOf() names the open meter by the sensor's serial; none stored is one meter since ever", () => {
  assert.deepEqual(metersOf(null, "A"), implicitMeters("A"));
  assert.deepEqual(metersOf(replaced, "NEW"), replaced);
  assert.equal(metersOf(replaced, "OTHER")[1].serial, "OTHER");
  assert.equal(replaced[1].serial, "NEW");
  assert.equal(meterAt(replaced, T - 1)?.serial, "OLD");
  assert.equal(meterAt(replaced, T)?.serial, "NEW");
});

Deno.test("replaceMeter() closes the open meter and opens the new one; refuses the same serial or an instant not after its start", () => {
  const change = { serial: "C", at: 2 * T, last_kwh: 95.2, first_kwh: 0 };
  assert.deepEqual(replaceMeter(replaced, change), [
    replaced[0],
    { ...replaced[1], to: 2 * T, last_kwh: 95.2 },
    { serial: "C", from: 2 * T, to: null, first_kwh: 0, last_kwh: null },
  ]);
  assert.deepEqual(replaceMeter(replaced, { ...change, serial: "NEW" }), {
    field: "serial_number",
    key: "meters.errors.serial_same",
  });
  assert.deepEqual(replaceMeter(replaced, { ...change, at: T }), {
    field: "at",
    key: "meters.errors.replace_before_start",
  });
  // The counters become readings: the old one's last just before the change, the new one's
  // first at it.
  assert.deepEqual(replacementReadings("NEW", change), [
    { serial: "NEW", ts: 2 * T - 1, kwh: 95.2 },
    { serial: "C", ts: 2 * T, kwh: 0 },
  ]);
  assert.deepEqual(replacementReadings("NEW", { ...change, last_kwh: null, first_kwh: null }), []);
});

Deno.test("parseInstant() reads local date-times in the portal's offset, zoned ISO instants and epoch ms", () => {
  const local = Date.UTC(2026, 10, 10, 18, 30);
  assert.equal(parseInstant("2026-11-10T12:30", -360), local);
  assert.equal(parseInstant("2026-11-10 12:30:00", -360), local);
  assert.equal(parseInstant("2026-11-10T18:30:00Z", -360), local);
  assert.equal(parseInstant("2026-11-10T12:30:00-06:00", 0), local);
  assert.equal(parseInstant(local, 0), local);
  for (
    const bad of ["2026-02-30T10:00", "2026-11-10T24:00", "2026-11-10", "yesterday", "", -1, NaN]
  ) {
    assert.equal(parseInstant(bad, -360), null, String(bad));
  }
});

Deno.test("parseKwh() takes a decimal comma and refuses negatives and text", () => {
  assert.equal(parseKwh("1 520,4"), 1520.4);
  assert.equal(parseKwh(".5"), 0.5);
  assert.equal(parseKwh(0), 0);
  for (const bad of ["-1", "1e3", "abc", -0.1, Infinity, "1.2.3"]) {
    assert.equal(parseKwh(bad), null, String(bad));
  }
  assert.deepEqual(parseManualReading({ at: "", kwh: "" }, 0), {
    ok: false,
    errors: { at: "meters.errors.at_required", kwh: "meters.errors.kwh_required" },
  });
});

Deno.test("checkCounterReading() keeps a reading between the meter's readings around it", () => {
  const around = { prev: 130, next: 160 };
  const now = 1000;
  assert.equal(checkCounterReading({ at: 500, kwh: 130 }, now, around), null);
  assert.equal(checkCounterReading({ at: 500, kwh: 160 }, now, around), null);
  assert.deepEqual(checkCounterReading({ at: 500, kwh: 129.9 }, now, around), {
    field: "kwh",
    key: "meters.errors.kwh_below_previous",
    kwh: 130,
  });
  assert.deepEqual(checkCounterReading({ at: 500, kwh: 160.1 }, now, around), {
    field: "kwh",
    key: "meters.errors.kwh_above_next",
    kwh: 160,
  });
  assert.equal(
    checkCounterReading({ at: 1001, kwh: 140 }, now, around)?.key,
    "meters.errors.at_future",
  );
  assert.equal(
    checkCounterReading({ at: 500, kwh: -1 }, now, around)?.key,
    "meters.errors.kwh_invalid",
  );
});
