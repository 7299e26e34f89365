/**
 * The conformance suite's robustness checks (conformance.ts registers them): late and repeated
 * samples, and bad samples and query arguments rejected by meaning.
 */
import assert from "node:assert/strict";
import type { MeasurementKey } from "../../core/devices.ts";
import type { Bucket, Sample, TelemetryStore } from "./mod.ts";
import { assertClose, assertPoints, D, DAY, denseDay, H, MIN } from "./_conformance_data.ts";

/** Registers a test of the suite (its store opened and closed around it). */
type RegisterTest = (title: string, fn: (store: TelemetryStore) => Promise<void>) => void;

/** Registers the robustness checks with `test`; `serial` makes a device serial unique per run. */
export function robustnessTests(test: RegisterTest, serial: (label: string) => string): void {
  test("late and repeated samples give the same answers as samples in order", async (store) => {
    const inOrder = serial("ordered"), shuffled = serial("shuffled");
    const { samples } = denseDay(inOrder, D, 6 * H);
    store.write(samples);
    await store.flush();
    const other = samples.map((x) => ({ ...x, serial: shuffled }));
    const third = Math.floor(other.length / 3);
    for (
      const part of [other.slice(2 * third), other.slice(0, third), other.slice(third, 2 * third)]
    ) {
      store.write(part);
      await store.flush();
    }
    store.write(other.slice(100, 400)); // a redelivery
    await store.flush();
    for (const bucket of ["15m", "1h"] as const) {
      assertPoints(
        await store.series(shuffled, "total_power", D, D + DAY, bucket, "avg"),
        await store.series(inOrder, "total_power", D, D + DAY, bucket, "avg"),
        `avg ${bucket}`,
      );
      assertPoints(
        await store.counterSeries(shuffled, "total_energy_kwh", D, D + DAY, bucket),
        await store.counterSeries(inOrder, "total_energy_kwh", D, D + DAY, bucket),
        `energy ${bucket}`,
      );
    }
    assertClose(
      await store.counterDelta(shuffled, "total_energy_kwh", D + 17 * MIN, D + 5 * H + 1),
      await store.counterDelta(inOrder, "total_energy_kwh", D + 17 * MIN, D + 5 * H + 1),
    );
    assert.deepEqual((await store.latest(shuffled))?.values, (await store.latest(inOrder))?.values);
  });

  test("bad samples and bad query arguments are rejected by meaning", async (store) => {
    const s = serial("bad");
    const bad = (values: Record<string, unknown>, ts: unknown = D) => () =>
      store.write([{ serial: s, ts, values } as unknown as Sample]);
    assert.throws(bad({ total_power: 1, bogus_key: 2 }), TypeError);
    assert.throws(bad({ total_power: Number.NaN }), TypeError);
    assert.throws(bad({ total_power: "12" }), TypeError);
    assert.throws(bad({ total_power: 1 }, Number.POSITIVE_INFINITY), RangeError);
    assert.throws(
      () => store.write([{ serial: "", ts: D, values: { total_power: 1 } }]),
      TypeError,
    );
    assert.throws(
      () =>
        store.write([
          { serial: s, ts: D, values: { total_power: 1 } },
          { serial: s, ts: D, values: { x: 1 } } as unknown as Sample,
        ]),
      TypeError,
    );
    assert.equal(store.stats().pending, 0, "nothing of a rejected batch is queued");
    await assert.rejects(
      async () => await store.series(s, "total_power", D, D + H, "5m" as Bucket, "avg"),
      TypeError,
    );
    await assert.rejects(
      async () => await store.series(s, "total_power", D, D + H, "1h", "sum" as "avg"),
      TypeError,
    );
    await assert.rejects(
      async () => await store.series(s, "nope" as MeasurementKey, D, D + H, "1h", "avg"),
      TypeError,
    );
    await assert.rejects(
      async () => await store.counterDelta(s, "total_power", D, D + H),
      /not a counter/,
    );
    await assert.rejects(
      async () => await store.counterDelta(s, "total_energy_kwh", D + H, D),
      RangeError,
    );
    await assert.rejects(
      async () => await store.counterSeries(s, "total_energy_kwh", D, NaN, "1h"),
      RangeError,
    );
  });
}
