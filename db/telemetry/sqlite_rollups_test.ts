import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { BUCKETS } from "./_buckets.ts";
import { encodeRow } from "./_rollup.ts";
import { newestOf, openRow } from "./_sqlite_open.ts";
import { openDatabase, ROLL_TABLE, Statements } from "./_sqlite_schema.ts";
import { openSqliteStore } from "./sqlite.ts";
import type { Sample, TelemetryStore } from "./mod.ts";

const MIN = 60_000, H = 3_600_000, DAY = 86_400_000;
/** Two hours before a month ends: the readings below cross an hour, a day and a month. */
const D = Date.UTC(2024, 4, 31, 22);

async function withFile(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "telemetry_rollups_" });
  try {
    await fn(`${dir}/telemetry.db`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A meter's readings every 5 minutes over [from, to): whole numbers, so that sums come out
 * the same whatever order they are added in; energy and power in alternate frames.
 */
function frames(serial: string, from: number, to: number): Sample[] {
  const out: Sample[] = [];
  for (let ts = from; ts < to; ts += 5 * MIN) {
    const i = (ts - D) / (5 * MIN);
    out.push({
      serial,
      ts,
      values: i % 2 === 0
        ? { total_power: 1000 + ((i * 37) % 400), phase_a_voltage: 228 + (i % 5) }
        : { total_energy_kwh: 5000 + i * 3 + (i > 30 ? 2 : 0), total_power: 900 + i },
    });
  }
  return out;
}

/** Every answer a client reads of the meter's readings before D + 2 days: series, usage. */
async function answers(store: TelemetryStore, serial: string): Promise<unknown[]> {
  const out: unknown[] = [];
  const from = D - DAY, to = D + 2 * DAY;
  for (const bucket of BUCKETS) {
    for (const agg of ["avg", "max", "min", "last"] as const) {
      out.push(await store.series(serial, "total_power", from, to, bucket, agg));
    }
    out.push(await store.series(serial, "phase_a_voltage", from, to, bucket, "avg"));
    out.push(await store.counterSeries(serial, "total_energy_kwh", from, to, bucket));
  }
  for (
    const [a, b] of [[from, to], [D + 7 * MIN, D + 3 * H + 1], [D + 2 * H, D + 4 * H], [D, D + H]]
  ) {
    out.push(await store.counterUsage!(serial, "total_energy_kwh", a, b));
  }
  return out;
}

/**
 * What a store given every reading in one merge answers, with a reading a year later that
 * closes every bucket they are in (so its rows are the ones written as buckets close).
 */
async function reference(samples: Sample[], serial: string): Promise<unknown[]> {
  const store = openSqliteStore(":memory:");
  try {
    store.write([...samples, { serial, ts: D + 400 * DAY, values: { total_power: 1 } }]);
    await store.flush();
    return await answers(store, serial);
  } finally {
    await store.close();
  }
}

/** The latest values of readings given in any order: each key's newest, the newest time. */
function latestOf(samples: Sample[]): Sample {
  const sorted = [...samples].sort((a, b) => a.ts - b.ts);
  const values = Object.assign({}, ...sorted.map((s) => s.values));
  return { serial: sorted[0].serial, ts: sorted[sorted.length - 1].ts, values };
}

/** Rows stored in the rollup table of each bucket size. */
function storedRows(path: string): Record<string, number> {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return Object.fromEntries(
      Object.entries(ROLL_TABLE).map((
        [bucket, table],
      ) => [bucket, (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n]),
    );
  } finally {
    db.close();
  }
}

Deno.test("sqlite writes an hour's, a day's and a month's rollup once, when it closes; queries see the open one all along", async () => {
  await withFile(async (path) => {
    const samples = frames("R", D, D + 55 * MIN); // within one hour
    const store = openSqliteStore(path);
    try {
      for (let i = 0; i < samples.length; i += 3) {
        store.write(samples.slice(i, i + 3));
        await store.flush();
        assert.deepEqual(
          await answers(store, "R"),
          await reference(samples.slice(0, i + 3), "R"),
          `after ${i + 3} readings`,
        );
        assert.deepEqual(await store.latest("R"), latestOf(samples.slice(0, i + 3)));
      }
      // Each merge rewrote the quarter hour's row only: the coarser buckets are still open.
      assert.deepEqual(storedRows(path), { "15m": 4, "1h": 0, "1d": 0, "1M": 0 });
      const next = frames("R", D + H, D + H + 10 * MIN);
      store.write(next);
      await store.flush();
      assert.deepEqual(storedRows(path), { "15m": 5, "1h": 1, "1d": 0, "1M": 0 });
      assert.deepEqual(await answers(store, "R"), await reference([...samples, ...next], "R"));
    } finally {
      await store.close();
    }
  });
});

Deno.test("sqlite rollups answer the same across restarts, late readings and buckets skipped over", async () => {
  await withFile(async (path) => {
    const all = frames("S", D, D + 5 * H); // into the next month
    const withheld = all.find((s) => s.ts === D + 10 * MIN)!;
    const early = all.filter((s) => s.ts < D + H + 20 * MIN && s !== withheld);
    const gap = all.filter((s) => s.ts >= D + H + 20 * MIN && s.ts < D + 2 * H);
    const after = all.filter((s) => s.ts >= D + 2 * H);
    const pieces: Sample[][] = [
      early.slice(0, 10),
      early.slice(10),
      // A late reading of the first hour with readings of the next day and month: the hour,
      // day and month that were open (D + H) close without a reading of theirs in the batch.
      [withheld, ...after.slice(0, 14)],
      gap, // late readings of the hour just closed
      after.slice(14, 20),
      after.slice(20),
    ];
    let written: Sample[] = [];
    for (const piece of pieces) {
      const store = openSqliteStore(path); // a restart before each piece
      try {
        store.write(piece);
        await store.flush();
        written = [...written, ...piece];
        assert.deepEqual(await answers(store, "S"), await reference(written, "S"));
        assert.deepEqual(await store.latest("S"), latestOf(written));
      } finally {
        await store.close();
      }
    }
  });
});

Deno.test("sqlite reads and goes on with a file whose open buckets' rows were stored (an earlier writer)", async () => {
  await withFile(async (path) => {
    const first = frames("O", D, D + H + 40 * MIN);
    let store = openSqliteStore(path);
    store.write(first);
    await store.close();
    // An earlier writer kept a row for every bucket, the open ones too, rewritten at each merge.
    const db = openDatabase(path);
    try {
      const st = new Statements(db);
      const sid = (st.sidOf.get("O") as { sid: number }).sid;
      const newest = newestOf(st, sid)!;
      BUCKETS.forEach((bucket, level) => {
        const row = openRow(st, sid, level, newest)!;
        st.roll[bucket].upsert.run(sid, Date.parse(bucketStart(bucket, newest)), encodeRow(row));
      });
    } finally {
      db.close();
    }
    assert.deepEqual(storedRows(path), { "15m": 7, "1h": 2, "1d": 1, "1M": 1 });
    const next = frames("O", D + H + 40 * MIN, D + 3 * H);
    store = openSqliteStore(path);
    try {
      assert.deepEqual(await answers(store, "O"), await reference(first, "O"));
      store.write(next.slice(0, 2)); // into the open hour
      await store.flush();
      assert.deepEqual(
        await answers(store, "O"),
        await reference([...first, ...next.slice(0, 2)], "O"),
      );
      store.write(next.slice(2)); // the hour, the day and the month close
      await store.flush();
      assert.deepEqual(await answers(store, "O"), await reference([...first, ...next], "O"));
    } finally {
      await store.close();
    }
  });
});

/** The start of the UTC bucket holding `ts`, as an ISO string. */
function bucketStart(bucket: string, ts: number): string {
  const d = new Date(ts);
  const size = { "15m": 15 * MIN, "1h": H, "1d": DAY }[bucket];
  if (size) return new Date(Math.floor(ts / size) * size).toISOString();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
}
