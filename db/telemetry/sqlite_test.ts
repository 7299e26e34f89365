import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { MEASUREMENT_KEYS as KEYS } from "../../core/devices.ts";
import { counterDelta as referenceDelta } from "../../core/energy.ts";
import { runConformance } from "./conformance.ts";
import { denseDay } from "./_conformance_data.ts";
import { counterUsageOf, type TelemetryStore } from "./mod.ts";
import { forwardingStore } from "../../tests/ingest/_helpers.ts";
import { openSqliteStore, type SqliteStoreOptions } from "./sqlite.ts";
import { openDatabase, Statements } from "./_sqlite_schema.ts";
import { SqliteWriter } from "./_sqlite_write.ts";

runConformance("sqlite :memory:", () => Promise.resolve(openSqliteStore(":memory:")));

/** A store on a fresh temporary file that removes the file when closed. */
async function tempStore(options: SqliteStoreOptions = {}): Promise<TelemetryStore> {
  const dir = await Deno.makeTempDir({ prefix: "telemetry_" });
  const store = openSqliteStore(`${dir}/telemetry.db`, options);
  const close = store.close.bind(store);
  store.close = async () => {
    await close();
    await Deno.remove(dir, { recursive: true });
  };
  return store;
}

runConformance("sqlite file", () => tempStore());

runConformance("sqlite file, writer worker", () => tempStore({ worker: true }));

const MIN = 60_000, H = 3_600_000, DAY = 86_400_000;
const D = Date.UTC(2024, 4, 6);
const floor15 = (t: number) => Math.floor(t / (15 * MIN)) * 15 * MIN;

async function withFile(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "telemetry_" });
  try {
    await fn(`${dir}/sub/telemetry.db`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Runs `fn` on a fresh in-memory store (with `options`) holding a dense run of readings of
 * `serial` over `span` from D, and closes the store however `fn` ends.
 */
async function withDenseStore(
  options: SqliteStoreOptions,
  serial: string,
  span: number,
  fn: (
    store: ReturnType<typeof openSqliteStore>,
    readings: ReturnType<typeof denseDay>,
  ) => Promise<void>,
): Promise<void> {
  const store = openSqliteStore(":memory:", options);
  try {
    const readings = denseDay(serial, D, span);
    store.write(readings.samples);
    await store.flush();
    await fn(store, readings);
  } finally {
    await store.close();
  }
}

function close(actual: number, expected: number, message: string): void {
  assert.ok(
    Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected)),
    `${message}: ${expected} != ${actual}`,
  );
}

Deno.test("sqlite prune() deletes raw rows past the retention and answers at 15-minute resolution after", () =>
  withDenseStore({ rawRetentionDays: 10 }, "P1", 3 * DAY, async (store, { samples, energy }) => {
    const from = D + 5 * H + 7 * MIN + 13_000, to = D + 2 * DAY + 40 * MIN + 1;
    close(
      await store.counterDelta("P1", "total_energy_kwh", from, to),
      referenceDelta(energy, from, to),
      "exact before",
    );
    assert.equal(await store.prune(D + 3 * DAY), 0, "nothing is older than 10 days yet");
    const deleted = await store.prune(D + 10 * DAY + DAY + 30 * MIN); // cutoff: one day and 30 min in
    assert.equal(deleted, samples.filter((s) => s.ts < D + DAY + 30 * MIN).length);
    assert.equal(
      await store.prune(D + 10 * DAY + DAY + 30 * MIN),
      0,
      "a second prune finds nothing",
    );
    close(
      await store.counterDelta("P1", "total_energy_kwh", from, to),
      referenceDelta(energy, floor15(from), to),
      "pruned start rounds down to 15 minutes, kept end stays exact",
    );
    await store.prune(D + 20 * DAY);
    close(
      await store.counterDelta("P1", "total_energy_kwh", from, to),
      referenceDelta(energy, floor15(from), floor15(to)),
      "both ends round down once everything is pruned",
    );
    close(
      await store.counterDelta("P1", "total_energy_kwh", D, D + 3 * DAY),
      referenceDelta(energy, D, D + 3 * DAY),
      "whole days come from the rollups exactly",
    );
  }));

Deno.test("sqlite counterUsage() counts readings from the rollups once raw rows are pruned", () =>
  withDenseStore({ rawRetentionDays: 10 }, "P2", 2 * DAY, async (store, { energy }) => {
    const count = (from: number, to: number) =>
      energy.filter((r) => r.ts >= from && r.ts < to).length;
    const before = await store.counterUsage!("P2", "total_energy_kwh", D + H, D + DAY + 30 * MIN);
    assert.equal(before.readings, count(D + H, D + DAY + 30 * MIN));
    await store.prune(D + 20 * DAY);
    const after = await store.counterUsage!("P2", "total_energy_kwh", D + H, D + DAY + 30 * MIN);
    assert.equal(after.readings, before.readings, "15-minute rows keep the counts");
    close(after.delta, referenceDelta(energy, D + H, D + DAY + 30 * MIN), "aligned range");
    const empty = await store.counterUsage!("P2", "total_energy_kwh", D + 3 * DAY, D + 4 * DAY);
    assert.deepEqual(empty, { delta: 0, readings: 0 });
  }));

Deno.test("counterUsageOf() answers a store without counterUsage() from its series and delta", async () => {
  const inner = openSqliteStore(":memory:");
  try {
    const { samples } = denseDay("P3", D, DAY);
    inner.write(samples);
    await inner.flush();
    const store = forwardingStore(inner); // the interface without counterUsage()
    for (const [from, to] of [[D + 2 * H, D + 5 * H], [D + 2 * DAY, D + 3 * DAY]]) {
      const exact = await counterUsageOf(inner, "P3", "total_energy_kwh", from, to);
      const fallback = await counterUsageOf(store, "P3", "total_energy_kwh", from, to);
      assert.equal(fallback.delta, exact.delta);
      assert.equal(fallback.readings > 0, exact.readings > 0);
    }
  } finally {
    await inner.close();
  }
});

Deno.test("sqlite drops late samples older than the pruned horizon and keeps its rollups", () =>
  withDenseStore({ rawRetentionDays: 1 }, "P2", 4 * H, async (store) => {
    await store.prune(D + 2 * DAY);
    const before = await store.series("P2", "total_power", D, D + DAY, "15m", "avg");
    store.write([{
      serial: "P2",
      ts: D + H + 1,
      values: { total_power: 1e6, total_energy_kwh: 0 },
    }]);
    await store.flush();
    assert.deepEqual(await store.series("P2", "total_power", D, D + DAY, "15m", "avg"), before);
  }));

Deno.test("sqlite writes a full batch by itself and waiting samples after the interval", async () => {
  const store = openSqliteStore(":memory:", { batchSize: 10, flushIntervalMs: 20 });
  try {
    store.write(
      Array.from(
        { length: 10 },
        (_, i) => ({ serial: "A", ts: D + i * MIN, values: { total_power: i } }),
      ),
    );
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(store.stats().pending, 0);
    assert.equal(store.stats().samplesWritten, 10);
    store.write([{ serial: "A", ts: D + H, values: { total_power: 1 } }]);
    assert.equal(store.stats().pending, 1);
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(store.stats().pending, 0);
    assert.equal((await store.latest("A"))?.ts, D + H);
    assert.equal(store.stats().backend, "sqlite");
  } finally {
    await store.close();
  }
});

Deno.test("sqlite close() writes what is queued and a reopened file goes on where it was", async () => {
  await withFile(async (path) => {
    const { samples, energy } = denseDay("R", D, DAY);
    const first = openSqliteStore(path);
    first.write(samples.slice(0, 5000));
    await first.close();
    const second = openSqliteStore(path);
    try {
      assert.equal(second.stats().samplesWritten, 0);
      second.write(samples.slice(5000));
      await second.flush();
      close(
        await second.counterDelta("R", "total_energy_kwh", D, D + DAY),
        referenceDelta(energy, D, D + DAY),
        "delta",
      );
      close(
        (await second.counterSeries("R", "total_energy_kwh", D, D + DAY, "1d"))[0].value,
        referenceDelta(energy, D, D + DAY),
        "daily rollup spans both sessions",
      );
    } finally {
      await second.close();
    }
  });
});

Deno.test("sqlite stores sharing one file see each other's writes", async () => {
  await withFile(async (path) => {
    const { samples, energy } = denseDay("M", D, 6 * H);
    const a = openSqliteStore(path), b = openSqliteStore(path);
    try {
      const chunk = 100; // about 12 minutes: both write into the same hour and day
      for (let i = 0; i * chunk < samples.length; i++) {
        const writer = i % 2 === 0 ? a : b;
        writer.write(samples.slice(i * chunk, (i + 1) * chunk));
        await writer.flush();
      }
      for (const store of [a, b]) {
        const hourly = await store.counterSeries("M", "total_energy_kwh", D, D + 6 * H, "1h");
        assert.equal(hourly.length, 6);
        hourly.forEach((p) =>
          close(p.value, referenceDelta(energy, p.ts, p.ts + H), `hour ${p.ts}`)
        );
        const daily = await store.counterSeries("M", "total_energy_kwh", D, D + 6 * H, "1d");
        close(daily[0].value, referenceDelta(energy, D, D + DAY), "day");
        const avg = await store.series("M", "total_power", D, D + 6 * H, "1d", "avg");
        const powers = samples.flatMap((s) => s.values.total_power ?? []);
        close(
          avg[0].value,
          powers.reduce((x, y) => x + y, 0) / powers.length,
          "average power of the day",
        );
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});

Deno.test("sqlite with a writer worker stores each of several writes queued together once", async () => {
  await withFile(async (path) => {
    const { samples, energy } = denseDay("P", D, DAY);
    const store = openSqliteStore(path, { worker: true, batchSize: 1_000_000 });
    try {
      const third = Math.floor(samples.length / 3);
      store.write(samples.slice(0, third));
      store.write([{ serial: "P", ts: D, values: {} }]); // nothing to store
      assert.throws(() => store.write([{ serial: "P", ts: D, values: { watts: 1 } as never }]));
      store.write(samples.slice(third, 2 * third));
      store.write(samples.slice(2 * third));
      assert.equal(store.stats().pending, samples.length, "samples waiting, not writes");
      await store.flush();
      assert.equal(store.stats().samplesWritten, samples.length);
      close(
        await store.counterDelta("P", "total_energy_kwh", D, D + DAY),
        referenceDelta(energy, D, D + DAY),
        "delta",
      );
      const last = samples[samples.length - 1];
      assert.equal((await store.latest("P"))?.ts, last.ts);
    } finally {
      await store.close();
    }
  });
});

Deno.test("sqlite with a writer worker writes, prunes and shares its file with readers", async () => {
  await withFile(async (path) => {
    const { samples, energy } = denseDay("W", D, 2 * DAY);
    const store = openSqliteStore(path, { worker: true, rawRetentionDays: 1 });
    const reader = openSqliteStore(path);
    try {
      store.write(samples);
      await store.flush();
      assert.equal(store.stats().samplesWritten, samples.length);
      for (const s of [store, reader]) {
        close(
          await s.counterDelta("W", "total_energy_kwh", D, D + 2 * DAY),
          referenceDelta(energy, D, D + 2 * DAY),
          "delta",
        );
      }
      assert.ok(await store.prune(D + 2 * DAY) > 0);
      await assert.rejects(store.prune(Number.NaN), RangeError);
    } finally {
      await store.close();
      await reader.close();
    }
    assert.throws(() => store.write(samples.slice(0, 1)), /closed/);
    await assert.rejects(store.latest("W"), /closed/);
  });
  assert.throws(() => openSqliteStore(":memory:", { worker: true }), /needs a database file/);
});

Deno.test("openSqliteStore() rejects a bad retention and a missing path", () => {
  assert.throws(() => openSqliteStore(":memory:", { rawRetentionDays: 0 }), RangeError);
  assert.throws(() => openSqliteStore(":memory:", { rawRetentionDays: Number.NaN }), RangeError);
  assert.throws(() => openSqliteStore(""), TypeError);
});

Deno.test("sqlite sync() makes samples durable; a journal left unmerged is merged when the store opens again", async () => {
  await withFile(async (path) => {
    const first = openSqliteStore(path, { flushIntervalMs: 60_000 });
    first.write([
      { serial: "J", ts: D, values: { total_power: 10, total_energy_kwh: 1 } },
      { serial: "J", ts: D + MIN, values: { total_power: 20 } },
    ]);
    await first.sync!();
    first.write([
      { serial: "J", ts: D + MIN, values: { total_power: 30, total_energy_kwh: 2 } }, // overlays
      { serial: "J", ts: D + 2 * MIN, values: { total_energy_kwh: 4 } },
    ]);
    await first.sync!();
    assert.equal(await first.latest("J"), null, "journaled, not merged yet");
    // A process that stops before merging: its writer journaled the samples, nothing more.
    const db = openDatabase(path);
    const writer = new SqliteWriter(db, new Statements(db));
    writer.write([{ serial: "K", ts: D, vals: KEYS.map((k) => k === "total_power" ? 7 : null) }]);
    db.close();

    const second = openSqliteStore(path);
    try {
      assert.deepEqual(await second.latest("J"), {
        serial: "J",
        ts: D + 2 * MIN,
        values: { total_power: 30, total_energy_kwh: 4 },
      });
      assert.deepEqual(await second.series("J", "total_power", D, D + H, "15m", "avg"), [
        { ts: D, value: 20 },
      ], "10 and 30: the later row of D + 1 min overlaid the earlier one");
      assert.equal(await second.counterDelta("J", "total_energy_kwh", D, D + H), 3);
      assert.deepEqual((await second.latest("K"))?.values, { total_power: 7 });
    } finally {
      await second.close();
      await first.close();
    }
    const check = new DatabaseSync(path);
    try {
      const { n } = check.prepare("SELECT count(*) AS n FROM journal").get() as { n: number };
      assert.equal(n, 0, "the journal is emptied by merging");
    } finally {
      check.close();
    }
  });
});
