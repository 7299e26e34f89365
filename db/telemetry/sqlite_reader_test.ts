/**
 * Several readers on one SQLite telemetry file: a portal with INGEST=off opens the file the
 * ingest process writes read-only. It answers what the writer merged (the file, never more),
 * and it writes nothing: no samples, no merge of a journal it finds, no pruning, no probe.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openTelemetry } from "./open.ts";
import { openSqliteStore } from "./sqlite.ts";
import { TelemetryStoreRefused, TelemetryUnavailableError } from "./mod.ts";
import { storedSamples } from "./_sqlite_chunks.ts";

const T0 = Date.UTC(2026, 0, 10);
const samples = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    serial: "M1",
    ts: T0 + (from + i) * 60_000,
    values: { total_energy_kwh: (from + i) / 10, total_power: 500 },
  }));

/** Rows of a table, read through a connection of its own. */
/** The raw samples of meter M1 the file holds (chunks and rows of the earlier layout). */
function stored(path: string): number {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return storedSamples(db, "M1").length;
  } finally {
    db.close();
  }
}

function count(path: string, sql: string): unknown {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return Object.values(db.prepare(sql).get() ?? {})[0];
  } finally {
    db.close();
  }
}

Deno.test("a reader sees the writer's readings once the writer merged them, as the file holds them", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/telemetry.sqlite`;
  // The writer as the ingest process opens it (a writer thread of its own).
  const writer = await openTelemetry({ sqlitePath: path });
  const reader = await openTelemetry({ sqlitePath: path, readOnly: true });
  try {
    writer.write(samples(0, 60));
    await writer.flush();
    assert.deepEqual(await reader.latest("M1"), {
      serial: "M1",
      ts: T0 + 59 * 60_000,
      values: { total_energy_kwh: 5.9, total_power: 500 },
    });
    const hour = [T0, T0 + 3_600_000] as const;
    assert.equal(await reader.counterDelta("M1", "total_energy_kwh", ...hour), 5.9);
    // Journaled (durable) but not merged yet: neither the writer's queries nor the reader's
    // see it; the reader answers what the file's merged tables hold, nothing of its own.
    writer.write(samples(60, 60));
    await (writer as unknown as { sync(): Promise<void> }).sync();
    assert.equal((await reader.latest("M1"))?.ts, T0 + 59 * 60_000);
    assert.equal((await writer.latest("M1"))?.ts, T0 + 59 * 60_000);
    await writer.flush();
    assert.equal((await reader.latest("M1"))?.ts, T0 + 119 * 60_000);
    assert.equal(await reader.counterDelta("M1", "total_energy_kwh", T0, T0 + 2 * 3_600_000), 11.9);
    assert.deepEqual(
      (await reader.series("M1", "total_power", ...hour, "1h", "avg")).map((p) => p.value),
      [500],
    );
    await reader.check!();
  } finally {
    await reader.close();
    await writer.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a reader writes nothing: samples and pruning refused, a journal it finds left to the writer", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/telemetry.sqlite`;
  // A writer that stopped after journaling, before merging (a killed ingest process).
  const writer = openSqliteStore(path);
  writer.write(samples(0, 10));
  await (writer as unknown as { sync(): Promise<void> }).sync();
  const journal = "SELECT count(*) FROM journal";
  assert.equal(count(path, journal), 1);
  const reader = await openTelemetry({ sqlitePath: path, readOnly: true });
  try {
    assert.throws(() => reader.write(samples(10, 1)), TelemetryUnavailableError);
    await assert.rejects(() => reader.prune(T0 + 90 * 86_400_000), TelemetryUnavailableError);
    await reader.flush();
    await reader.check!();
    assert.equal(await reader.latest("M1"), null);
    await reader.close();
    assert.equal(count(path, journal), 1, "the reader merged the writer's journal");
    assert.equal(stored(path), 0);
    assert.equal(count(path, "SELECT count(*) FROM meta WHERE key = 'health_probe'"), 0);
  } finally {
    await reader.close();
    await writer.close();
  }
  // The next writer merges it.
  assert.equal(count(path, journal), 0);
  assert.equal(stored(path), 10);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a reader does not create the store: without the writer's file it is refused, saying what to start", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/telemetry.sqlite`;
  try {
    await assert.rejects(
      () => openTelemetry({ sqlitePath: path, readOnly: true }),
      (e) => e instanceof TelemetryStoreRefused && /deno task ingest/.test(e.message),
    );
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
