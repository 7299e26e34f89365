import assert from "node:assert/strict";
import {
  missedEnergyKwh,
  monthRange,
  sensorUptimeColor,
  systemUptimeColor,
  uptimeOver,
} from "./uptime.ts";

const H = 3_600_000;
const day0 = Date.UTC(2026, 10, 1);

type Outage = Parameters<typeof uptimeOver>[0][number];
type Uptime = ReturnType<typeof uptimeOver>;

/** Outages over the day from day0, seen at `now`, and the figures they must give. */
const DAY_CASES: { name: string; outages: Outage[]; now: number; expect: Partial<Uptime> }[] = [
  {
    name: "uptimeOver() subtracts disconnections clipped to the period",
    outages: [
      { disconnect_time: day0 - H, reconnect_time: day0 + H },
      { disconnect_time: day0 + 10 * H, reconnect_time: day0 + 12 * H },
    ],
    now: day0 + 100 * H,
    expect: {
      offline_duration_seconds: 3 * 3600,
      online_duration_seconds: 21 * 3600,
      uptime_percent: 87.5,
    },
  },
  {
    name: "uptimeOver() merges overlapping events and counts an ongoing one until now",
    outages: [
      { disconnect_time: day0 + 2 * H, reconnect_time: day0 + 5 * H },
      { disconnect_time: day0 + 4 * H, reconnect_time: day0 + 6 * H },
      { disconnect_time: day0 + 8 * H, reconnect_time: null },
    ],
    now: day0 + 10 * H,
    expect: { observed_seconds: 10 * 3600, offline_duration_seconds: 6 * 3600, uptime_percent: 40 },
  },
];

for (const c of DAY_CASES) {
  Deno.test(c.name, () => {
    const u = uptimeOver(c.outages, day0, day0 + 24 * H, 0, c.now);
    for (const [field, want] of Object.entries(c.expect)) {
      assert.equal(u[field as keyof Uptime], want, field);
    }
  });
}

Deno.test("uptimeOver() observes only from the device's creation and gives null for no time", () => {
  const u = uptimeOver([], day0, day0 + 24 * H, day0 + 12 * H, day0 + 48 * H);
  assert.equal(u.observed_seconds, 12 * 3600);
  assert.equal(u.uptime_percent, 100);
  const none = uptimeOver([], day0, day0 + 24 * H, day0 + 30 * H, day0 + 48 * H);
  assert.equal(none.uptime_percent, null);
});

Deno.test("uptime percent has one decimal", () => {
  const u = uptimeOver(
    [{ disconnect_time: day0, reconnect_time: day0 + 12_000 }],
    day0,
    day0 + 3 * H,
    0,
    day0 + 3 * H,
  );
  assert.equal(u.uptime_percent, 99.9);
});

Deno.test("missed energy is offline hours times 0.5 kWh", () => {
  assert.equal(missedEnergyKwh(3 * 3600), 1.5);
  assert.equal(missedEnergyKwh(0), 0);
  assert.equal(missedEnergyKwh(1800), 0.25);
});

Deno.test("uptime colour bands follow the spec's thresholds", () => {
  const sensor: [number, string][] = [
    [98, "dark_green"],
    [97.9, "green"],
    [90, "green"],
    [80, "yellow"],
    [70, "orange"],
    [69.9, "red"],
  ];
  for (const [percent, colour] of sensor) {
    assert.equal(sensorUptimeColor(percent), colour, `sensor at ${percent} %`);
  }
  for (const [percent, colour] of [[90.1, "green"], [90, "amber"], [70, "red"]] as const) {
    assert.equal(systemUptimeColor(percent), colour, `system at ${percent} %`);
  }
});

Deno.test("monthRange() gives the UTC month and refuses other shapes", () => {
  assert.deepEqual(monthRange("2026-12"), {
    from: Date.UTC(2026, 11, 1),
    to: Date.UTC(2027, 0, 1),
  });
  for (const bad of ["2026-13", "2026-1", "26-01", "2026-00", ""]) {
    assert.throws(() => monthRange(bad), RangeError, bad);
  }
});
