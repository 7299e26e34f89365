/**
 * The conformance suite every telemetry backend passes: `runConformance(name, open)`
 * registers one Deno test per behaviour, each on a store from `open()` that it closes.
 * Serials are unique per run, so a shared database (QuestDB) needs no cleanup. Expected
 * values are computed by hand, or for dense data by the reference rule of core/energy.ts.
 */
import assert from "node:assert/strict";
import type { MeasurementKey } from "../../core/devices.ts";
import { counterDelta as referenceDelta } from "../../core/energy.ts";
import type { Bucket, Sample, TelemetryStore } from "./mod.ts";
import {
  assertClose,
  assertPoints,
  D,
  DAY,
  denseDay,
  H,
  MIN,
  referenceSeries,
  S,
} from "./_conformance_data.ts";
import { robustnessTests } from "./_conformance_robustness.ts";

/** Options of {@link runConformance}. */
interface ConformanceOptions {
  /** Register every test as ignored (a backend that is not configured here); `open` is not called. */
  ignore?: boolean;
}

/** Registers the suite for one backend. */
export function runConformance(
  name: string,
  open: () => Promise<TelemetryStore>,
  opts: ConformanceOptions = {},
): void {
  const run = crypto.randomUUID().slice(0, 8);
  let n = 0;
  const serial = (label: string) => `${label}-${run}-${++n}`;

  const test = (title: string, fn: (store: TelemetryStore) => Promise<void>) =>
    Deno.test({
      name: `${name}: ${title}`,
      ignore: opts.ignore ?? false,
      fn: async () => {
        const store = await open();
        try {
          await fn(store);
        } finally {
          await store.close();
        }
      },
    });

  test("flush() makes samples visible and latest() merges partial frames", async (store) => {
    const s = serial("latest");
    store.write([
      { serial: s, ts: D, values: { total_power: 100, phase_a_voltage: 230 } },
      { serial: s, ts: D + 10 * S, values: { total_energy_kwh: 5 } },
      { serial: s, ts: D + 20 * S, values: { total_power: 120 } },
    ]);
    assert.equal(store.stats().pending, 3);
    await store.flush();
    assert.equal(store.stats().pending, 0);
    assert.ok(store.stats().samplesWritten >= 3);
    assert.deepEqual(await store.latest(s), {
      serial: s,
      ts: D + 20 * S,
      values: { total_power: 120, phase_a_voltage: 230, total_energy_kwh: 5 },
    });
    assert.equal(await store.latest(serial("nobody")), null);
    store.write([
      { serial: s, ts: D + 15 * S, values: { total_energy_kwh: 6, total_power: 1 } }, // late
      { serial: s, ts: D + 30 * S, values: { phase_a_voltage: 231 } },
    ]);
    await store.flush();
    assert.deepEqual(await store.latest(s), {
      serial: s,
      ts: D + 30 * S,
      values: { total_power: 120, phase_a_voltage: 231, total_energy_kwh: 6 },
    }, "each key keeps its newest reading, whatever the order of arrival");
  });

  test("samples of the same instant in one batch are merged", async (store) => {
    const s = serial("same-ts");
    store.write([
      { serial: s, ts: D, values: { total_power: 10, phase_b_voltage: 229 } },
      { serial: s, ts: D, values: { total_energy_kwh: 3 } },
      { serial: s, ts: D + MIN, values: { total_power: 30, total_energy_kwh: 4 } },
    ]);
    await store.flush();
    const avg = await store.series(s, "total_power", D, D + H, "15m", "avg");
    assert.deepEqual(avg, [{ ts: D, value: 20 }], "two power readings, not three rows");
    assert.equal(await store.counterDelta(s, "total_energy_kwh", D, D + H), 1);
  });

  test("series() aggregates 15-minute, hourly, daily and monthly buckets", async (store) => {
    const s = serial("series");
    const at = (h: number, m: number) => D + h * H + m * MIN;
    store.write([
      { serial: s, ts: at(0, 0), values: { total_power: 10 } },
      { serial: s, ts: at(0, 5), values: { total_power: 20 } },
      { serial: s, ts: at(0, 10), values: { total_power: 30 } },
      { serial: s, ts: at(0, 15), values: { total_power: 40 } },
      { serial: s, ts: at(0, 20), values: { phase_a_voltage: 231 } },
      { serial: s, ts: at(1, 0), values: { total_power: 50 } },
      { serial: s, ts: at(1, 40), values: { total_power: 70 } },
    ]);
    await store.flush();
    const get = (
      bucket: Bucket,
      agg: "avg" | "max" | "min" | "last",
      key: MeasurementKey = "total_power",
    ) => store.series(s, key, D, D + DAY, bucket, agg);
    const pts = (ts: number[], values: number[]) => ts.map((t, i) => ({ ts: t, value: values[i] }));
    const q = [at(0, 0), at(0, 15), at(1, 0), at(1, 30)];
    assert.deepEqual(await get("15m", "avg"), pts(q, [20, 40, 50, 70]));
    assert.deepEqual(await get("15m", "max"), pts(q, [30, 40, 50, 70]));
    assert.deepEqual(await get("15m", "min"), pts(q, [10, 40, 50, 70]));
    assert.deepEqual(await get("15m", "last"), pts(q, [30, 40, 50, 70]));
    assert.deepEqual(await get("1h", "avg"), pts([at(0, 0), at(1, 0)], [25, 60]));
    assert.deepEqual(await get("1h", "max"), pts([at(0, 0), at(1, 0)], [40, 70]));
    assert.deepEqual(await get("1h", "min"), pts([at(0, 0), at(1, 0)], [10, 50]));
    assert.deepEqual(await get("1h", "last"), pts([at(0, 0), at(1, 0)], [40, 70]));
    assertPoints(await get("1d", "avg"), [{ ts: D, value: 220 / 6 }]);
    assertPoints(await get("1M", "avg"), [{ ts: Date.UTC(2024, 2, 1), value: 220 / 6 }]);
    assert.deepEqual(await get("15m", "avg", "phase_a_voltage"), [{ ts: at(0, 15), value: 231 }]);
    assert.deepEqual(
      await store.series(s, "total_power", at(1, 0), at(2, 0), "15m", "avg"),
      pts([at(1, 0), at(1, 30)], [50, 70]),
      "a range inside the day",
    );
    assert.deepEqual(await store.series(s, "total_power", D + DAY, D + 2 * DAY, "1h", "avg"), []);
    assert.deepEqual(
      await store.series(s, "total_power", at(0, 5), at(0, 5), "1h", "avg"),
      [],
      "empty range",
    );
    assert.deepEqual(
      await store.counterSeries(s, "total_energy_kwh", at(0, 5), at(0, 5), "1h"),
      [],
    );
    assert.deepEqual(
      await store.series(serial("nobody"), "total_power", D, D + DAY, "1h", "avg"),
      [],
    );
  });

  test("counterDelta() counts across resets, jitter and gaps", async (store) => {
    const s = serial("delta");
    const g = D + 3 * DAY;
    const energy: [number, number][] = [
      [D, 100],
      [D + 10 * MIN, 100.5],
      [D + 20 * MIN, 101],
      [g, 104], // three days offline
      [g + 10 * MIN, 0.2], // meter reset
      [g + 20 * MIN, 0.7],
      [g + 30 * MIN, 0.6999], // jitter
      [g + 40 * MIN, 1.2],
    ];
    store.write(energy.map(([ts, v]) => ({ serial: s, ts, values: { total_energy_kwh: v } })));
    await store.flush();
    const delta = (from: number, to: number) => store.counterDelta(s, "total_energy_kwh", from, to);
    assertClose(await delta(D, D + 4 * DAY), 5.2, "everything");
    assertClose(await delta(D + 10 * MIN, g), 1, "pairs ending at +10 and +20 min");
    assertClose(await delta(D + 10 * MIN, g + 1), 4, "and the gap");
    assertClose(await delta(D + DAY, D + 4 * DAY), 4.2, "a gap spanning `from` counts");
    assertClose(await delta(g + 10 * MIN, g + 30 * MIN), 0.7, "reset and the step after it");
    assertClose(await delta(g + 15 * MIN, g + 35 * MIN), 0.4999, "ending in a dip");
    assert.equal(await delta(D - DAY, D), 0, "before any reading");
    assert.equal(await delta(D + 5 * MIN, D + 5 * MIN), 0, "empty range");
    assert.equal(await store.counterDelta(serial("nobody"), "total_energy_kwh", D, g), 0);
  });

  test("counterUsage() answers counterDelta() and counts the readings in the range", async (store) => {
    const s = serial("usage");
    const g = D + 3 * DAY;
    const energy: [number, number][] = [
      [D - 2 * H, 99],
      [D + 10 * MIN, 100.5],
      [D + 20 * MIN, 101],
      [D + 2 * H + 5 * S, 101.5],
      [g, 104], // three days offline
      [g + 10 * MIN, 0.2], // meter reset
      [g + 40 * MIN, 1.2],
    ];
    store.write(energy.map(([ts, v]) => ({ serial: s, ts, values: { total_energy_kwh: v } })));
    store.write([{ serial: s, ts: D + DAY, values: { total_power: 5 } }]); // not a counter reading
    await store.flush();
    const ranges: [number, number, number][] = [
      [D, D + 4 * DAY, 6],
      [D + 15 * MIN, g, 2],
      [D + 3 * H, g, 0], // the gap: no readings, and the energy counts where it ends
      [D + 3 * H, g + 1, 1],
      [g + 10 * MIN, g + 40 * MIN, 1],
      [D - DAY, D, 1],
      [D + 5 * MIN, D + 5 * MIN, 0],
    ];
    for (const [from, to, readings] of ranges) {
      const usage = await store.counterUsage!(s, "total_energy_kwh", from, to);
      assert.equal(usage.readings, readings, `readings in [${from - D}, ${to - D})`);
      assertClose(
        usage.delta,
        await store.counterDelta(s, "total_energy_kwh", from, to),
        `delta in [${from - D}, ${to - D})`,
      );
    }
    assert.deepEqual(
      await store.counterUsage!(serial("nobody"), "total_energy_kwh", D, g),
      { delta: 0, readings: 0 },
    );
    await assert.rejects(store.counterUsage!(s, "total_power", D, g), /not a counter/);
  });

  test("counterDelta() and counterSeries() agree with the raw rule on dense data", async (store) => {
    const s = serial("dense");
    const { samples, energy } = denseDay(s, D, 2 * DAY);
    store.write(samples);
    await store.flush();
    const ranges: [number, number][] = [
      [D, D + 2 * DAY],
      [D + 7 * H + 3 * MIN + 17 * S, D + DAY + 13 * H + 44 * MIN + 1],
      [D + 15 * MIN, D + DAY - 15 * MIN],
      [D + 23 * H + 59 * MIN, D + DAY + 1 * MIN],
      [D + 5 * S, D + 10 * MIN],
      [D - DAY, D + 2 * DAY + H],
    ];
    for (const [from, to] of ranges) {
      assertClose(
        await store.counterDelta(s, "total_energy_kwh", from, to),
        referenceDelta(energy, from, to),
        `delta over [${new Date(from).toISOString()}, ${new Date(to).toISOString()})`,
      );
    }
    for (const bucket of ["15m", "1h", "1d"] as const) {
      const got = await store.counterSeries(s, "total_energy_kwh", D, D + 2 * DAY, bucket);
      assertPoints(got, referenceSeries(energy, D, D + 2 * DAY, bucket), `counterSeries ${bucket}`);
      const sum = got.reduce((acc, p) => acc + p.value, 0);
      assertClose(
        sum,
        await store.counterDelta(s, "total_energy_kwh", D, D + 2 * DAY),
        `sum ${bucket}`,
      );
    }
  });

  test("prune() keeps rollups: bucket-aligned answers are unchanged", async (store) => {
    const s = serial("prune");
    const { samples } = denseDay(s, D, 2 * DAY);
    store.write(samples);
    await store.flush();
    const ask = async () => ({
      delta: await store.counterDelta(s, "total_energy_kwh", D + H, D + DAY + 15 * MIN),
      whole: await store.counterDelta(s, "total_energy_kwh", D, D + 2 * DAY),
      series: await store.counterSeries(s, "total_energy_kwh", D, D + 2 * DAY, "1h"),
      power: await store.series(s, "total_power", D, D + 2 * DAY, "15m", "max"),
      latest: await store.latest(s),
    });
    const before = await ask();
    const deleted = await store.prune(D + 2 * DAY + 60 * DAY);
    assert.ok(Number.isInteger(deleted) && deleted >= 0, `prune() answers a count: ${deleted}`);
    const after = await ask();
    assertClose(after.delta, before.delta, "delta over hours");
    assertClose(after.whole, before.whole, "delta over days");
    assertPoints(after.series, before.series, "hourly energy");
    assertPoints(after.power, before.power, "15-minute max power");
    assert.deepEqual(after.latest, before.latest);
    store.write([{ serial: s, ts: D + 2 * DAY, values: { total_energy_kwh: 1e6 } }]);
    await store.flush();
    assert.equal(
      (await store.latest(s))?.values.total_energy_kwh,
      1e6,
      "writes go on after a prune",
    );
  });

  test("devices are isolated from each other", async (store) => {
    const serials = [serial("iso"), serial("iso"), serial("iso")];
    store.write(serials.flatMap((s, i) =>
      Array.from({ length: 12 }, (_, j) => ({
        serial: s,
        ts: D + j * 5 * MIN,
        values: { total_power: (i + 1) * 100, total_energy_kwh: 10 * i + j * (i + 1) },
      }))
    ));
    await store.flush();
    for (const [i, s] of serials.entries()) {
      assert.deepEqual(await store.series(s, "total_power", D, D + H, "1h", "avg"), [{
        ts: D,
        value: (i + 1) * 100,
      }]);
      assert.equal(await store.counterDelta(s, "total_energy_kwh", D, D + H), 11 * (i + 1));
      assert.equal((await store.latest(s))?.values.total_energy_kwh, 10 * i + 11 * (i + 1));
    }
  });

  test("a leap year of data gives calendar months and days", async (store) => {
    const s = serial("year");
    const start = Date.UTC(2024, 0, 1), end = Date.UTC(2025, 0, 1);
    const samples: Sample[] = [];
    for (let ts = start, i = 0; ts < end; ts += 6 * H, i++) {
      const month = new Date(ts).getUTCMonth();
      samples.push({
        serial: s,
        ts,
        values: { total_power: month + 1, total_energy_kwh: 0.25 * i },
      });
    }
    store.write(samples);
    await store.flush();
    const months = Array.from({ length: 12 }, (_, m) => Date.UTC(2024, m, 1));
    assert.deepEqual(
      await store.series(s, "total_power", start, end, "1M", "avg"),
      months.map((ts, m) => ({ ts, value: m + 1 })),
    );
    const days = [30.75, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]; // Jan lacks its first pair
    assertPoints(
      await store.counterSeries(s, "total_energy_kwh", start, end, "1M"),
      months.map((ts, m) => ({ ts, value: days[m] })),
      "energy per month",
    );
    assertClose(await store.counterDelta(s, "total_energy_kwh", start, end), 365.75, "the year");
    assertClose(
      await store.counterDelta(s, "total_energy_kwh", months[1], months[2]),
      29,
      "February",
    );
    const feb = await store.counterSeries(s, "total_energy_kwh", months[1], months[2], "1d");
    assert.equal(feb.length, 29);
    assert.deepEqual(feb.map((p) => p.value), new Array(29).fill(1));
    assert.equal(feb[28].ts, Date.UTC(2024, 1, 29));
    assert.equal((await store.series(s, "total_power", start, end, "1d", "last")).length, 366);
  });

  robustnessTests(test, serial);
}
