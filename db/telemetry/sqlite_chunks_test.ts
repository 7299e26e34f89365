import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { MEASUREMENT_KEYS as KEYS } from "../../core/devices.ts";
import { decodeChunk } from "./_chunk_codec.ts";
import { storedSamples } from "./_sqlite_chunks.ts";
import { openSqliteStore } from "./sqlite.ts";
import { type NormSample, packBatch } from "./_samples.ts";
import { openDatabase, Statements } from "./_sqlite_schema.ts";
import type { Sample, TelemetryStore } from "./mod.ts";

const MIN = 60_000, H = 3_600_000, DAY = 86_400_000;
const D = Date.UTC(2024, 4, 6);

async function withFile(fn: (path: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "telemetry_chunks_" });
  try {
    await fn(`${dir}/telemetry.db`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A meter's frames every 10 s as its JSON carries them: decimals, a counter that grows. */
function meterFrames(serial: string, from: number, to: number): Sample[] {
  const out: Sample[] = [];
  let wh = 1_234_567;
  for (let ts = from, i = 0; ts < to; ts += 10_000, i++) {
    const watts = 3000 + ((i * 37) % 400) - 200;
    wh += Math.round(watts / 360);
    const values: Record<string, number> = {
      total_power: watts / 10,
      total_current: Math.round(watts / 23) / 100,
      total_energy_kwh: wh / 1000,
    };
    for (const p of ["a", "b", "c"]) {
      values[`phase_${p}_power`] = Math.round(watts / 3) / 10;
      values[`phase_${p}_voltage`] = (2290 + ((i * 7) % 30)) / 10;
      values[`phase_${p}_current`] = Math.round(watts / 69) / 100;
    }
    out.push({ serial, ts: ts + (i % 3), values });
  }
  return out;
}

/** Bytes of the pages holding raw samples (either layout) per sample. */
function rawBytesPerSample(path: string, samples: number): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const { b } = db.prepare(
      "SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name IN ('raw', 'chunks')",
    ).get() as { b: number };
    return b / samples;
  } finally {
    db.close();
  }
}

Deno.test("sqlite keeps a meter's raw readings in a few bytes each, every value given back", async () => {
  await withFile(async (path) => {
    const samples = meterFrames("C1", D, D + 2 * DAY);
    const store = openSqliteStore(path);
    try {
      store.write(samples);
      await store.flush();
    } finally {
      await store.close();
    }
    // One row per sample took 100 bytes and more for these 11 values (REAL columns).
    const bytes = rawBytesPerSample(path, samples.length);
    assert.ok(bytes < 32, `${bytes.toFixed(1)} bytes per sample`);
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const back = storedSamples(db, "C1");
      assert.equal(back.length, samples.length);
      back.forEach((r, i) => {
        assert.equal(r.ts, samples[i].ts);
        KEYS.forEach((k, j) =>
          assert.equal(r.vals[j], (samples[i].values as Record<string, number>)[k] ?? null)
        );
      });
    } finally {
      db.close();
    }
  });
});

Deno.test("sqlite shows readings of a chunk being filled after each merge", async () => {
  const store = openSqliteStore(":memory:");
  try {
    const samples = meterFrames("C2", D, D + 14 * MIN); // one 15-minute bucket
    for (let i = 0; i < samples.length; i += 10) {
      store.write(samples.slice(i, i + 10));
      await store.flush();
      const usage = await store.counterUsage!("C2", "total_energy_kwh", D, D + 14 * MIN);
      assert.equal(usage.readings, Math.min(i + 10, samples.length));
      const last = samples[Math.min(i + 10, samples.length) - 1].values.total_energy_kwh!;
      assert.ok(Math.abs(usage.delta - (last - samples[0].values.total_energy_kwh!)) < 1e-9);
    }
  } finally {
    await store.close();
  }
});

/** Rewrites every chunk of a file as rows of the earlier layout (a file before chunks). */
function toEarlierLayout(path: string): void {
  const db = new DatabaseSync(path);
  try {
    const cols = KEYS.join(", "), marks = KEYS.map(() => "?").join(", ");
    const insert = db.prepare(`INSERT INTO raw (sid, ts, ${cols}) VALUES (?, ?, ${marks})`);
    const chunks = db.prepare("SELECT sid, data FROM chunks").all() as {
      sid: number;
      data: Uint8Array;
    }[];
    db.exec("BEGIN");
    for (const { sid, data } of chunks) {
      for (const r of decodeChunk(data)) insert.run(sid, r.ts, ...r.vals);
    }
    db.exec("DELETE FROM chunks");
    db.exec("COMMIT");
  } finally {
    db.close();
  }
}

async function answers(store: TelemetryStore, serial: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const [from, to] of [[D, D + DAY], [D + 7 * MIN + 13, D + 5 * H + 1], [D + H, D + H + 9]]) {
    out.push(await store.counterUsage!(serial, "total_energy_kwh", from, to));
    out.push(await store.series(serial, "total_power", from, to, "15m", "max"));
    out.push(await store.counterSeries(serial, "total_energy_kwh", from, to, "1h"));
  }
  return out;
}

Deno.test("sqlite reads an older file's rows beside chunks, moves a rewritten bucket's rows into its chunk, prunes and counts both", async () => {
  await withFile(async (path) => {
    const samples = meterFrames("L", D, D + 6 * H);
    let store = openSqliteStore(path, { rawRetentionDays: 1 });
    store.write(samples);
    await store.flush();
    const expected = await answers(store, "L");
    await store.close();
    toEarlierLayout(path);

    store = openSqliteStore(path, { rawRetentionDays: 1 });
    try {
      assert.deepEqual(await answers(store, "L"), expected, "the earlier layout answers the same");
      // A late reading rewrites its bucket: the bucket's rows move into its chunk.
      const late = { serial: "L", ts: D + H + 5, values: { total_power: 1 } };
      store.write([late]);
      // New readings after the last, in a bucket that also has rows of the earlier layout.
      const next = meterFrames("L", D + 6 * H, D + 6 * H + 20 * MIN);
      store.write(next);
      await store.flush();
      const usage = await store.counterUsage!("L", "total_energy_kwh", D, D + DAY);
      assert.equal(usage.readings, samples.length + next.length);
      const db = new DatabaseSync(path, { readOnly: true });
      try {
        const inRaw = (from: number, to: number) =>
          (db.prepare("SELECT count(*) AS n FROM raw WHERE ts >= ? AND ts < ?").get(from, to) as {
            n: number;
          }).n;
        assert.equal(inRaw(D + H, D + H + 15 * MIN), 0, "the rewritten bucket's rows moved");
        assert.ok(inRaw(D, D + H) > 0, "other buckets' rows stay where they were");
        assert.equal(storedSamples(db, "L").length, samples.length + next.length + 1);
      } finally {
        db.close();
      }
      const deleted = await store.prune(D + DAY + 2 * H);
      assert.equal(
        deleted,
        [...samples, late].filter((s) => s.ts < D + 2 * H).length,
        "prune counts the readings of both layouts",
      );
    } finally {
      await store.close();
    }
  });
});

Deno.test("sqlite merges a journal of the earlier layout (float64 rows) left by a stopped process", async () => {
  await withFile(async (path) => {
    const db = openDatabase(path);
    try {
      const batch: NormSample[] = [
        { serial: "J", ts: D, vals: KEYS.map((k) => k === "total_power" ? 10 : null) },
        { serial: "J", ts: D + MIN, vals: KEYS.map((k) => k === "total_power" ? 30 : null) },
      ];
      const { serials, data } = packBatch(batch); // how the journal held a batch before chunks
      new Statements(db).appendJournal.run(
        JSON.stringify(serials),
        new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      );
    } finally {
      db.close();
    }
    const store = openSqliteStore(path);
    try {
      assert.deepEqual(await store.latest("J"), {
        serial: "J",
        ts: D + MIN,
        values: { total_power: 30 },
      });
      assert.deepEqual(await store.series("J", "total_power", D, D + H, "15m", "avg"), [
        { ts: D, value: 20 },
      ]);
    } finally {
      await store.close();
    }
  });
});
