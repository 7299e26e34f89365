/**
 * `deno run -A scripts/bench_store.ts`: the SQLite store's write path with many meters, as
 * ingest drives it. Every meter sends one reading in turn (1,000 meters by default); ingest
 * makes each group of readings durable before it acknowledges them (`write()`, one
 * transaction appending to the journal), and the journal is merged into raw rows, rollups
 * and latest values every so many samples (`merge()`). Prints the time per sample of
 * each step, the process's CPU time per sample of both (what the store costs beside the
 * broker on a shared machine, where the elapsed time also counts waiting for a core) for several group and merge sizes, and the bytes per sample on disk once merged:
 * of the raw samples' pages (`raw` rows, or `chunks`), and of all the pages in use (rollups
 * and the rest too; free pages left out), then the figures as JSON.
 *
 * Options: `--meters M` (default 1000), `--samples N` per case (default 200000).
 */
import process from "node:process";
import { parseArgs } from "node:util";
import { KEY_COUNT, type NormSample } from "../db/telemetry/_samples.ts";
import { openDatabase, Statements } from "../db/telemetry/_sqlite_schema.ts";
import { SqliteWriter } from "../db/telemetry/_sqlite_write.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    meters: { type: "string", default: "1000" },
    samples: { type: "string", default: "200000" },
  },
}).values;
const METERS = Number(args.meters), TOTAL = Number(args.samples);
const START = Date.UTC(2026, 10, 1);
const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

/** Reading n: meter n mod M, every 10 s; power and energy frames alternate (keys left out). */
function reading(n: number): NormSample {
  const round = Math.floor(n / METERS);
  const vals: (number | null)[] = new Array(KEY_COUNT);
  for (let k = 0; k < KEY_COUNT; k++) vals[k] = (round % 2 === 0) === (k < 15) ? n * 0.5 + k : null;
  return { serial: `BENCH-${n % METERS}`, ts: START + round * 10_000, vals };
}

interface Case {
  group: number;
  mergeEvery: number;
  writeUs: number;
  mergeUs: number;
  cpuUs: number;
  rawBytesPerSample: number;
  bytesPerSample: number;
}

function run(group: number, mergeEvery: number): Case {
  const dir = Deno.makeTempDirSync({ prefix: "bench-store-" });
  const db = openDatabase(`${dir}/telemetry.sqlite`);
  const writer = new SqliteWriter(db, new Statements(db));
  let writeMs = 0, mergeMs = 0, since = 0, bytes = 0, rawBytes = 0, cpuMicros = 0;
  try {
    const batches: NormSample[][] = [];
    for (let first = 0; first < TOTAL; first += group) {
      batches.push(
        Array.from({ length: Math.min(group, TOTAL - first) }, (_, i) => reading(first + i)),
      );
    }
    const cpu = process.cpuUsage();
    for (const [i, batch] of batches.entries()) {
      const a = performance.now();
      writer.write(batch);
      const b = performance.now();
      writeMs += b - a;
      since += batch.length;
      if (since >= mergeEvery || i === batches.length - 1) {
        since = 0;
        writer.merge();
        mergeMs += performance.now() - b;
      }
    }
    const used = process.cpuUsage(cpu);
    cpuMicros = used.user + used.system;
    const pragma = (name: string) =>
      Number(Object.values(db.prepare(`PRAGMA ${name}`).get() as Record<string, number>)[0]);
    bytes = (pragma("page_count") - pragma("freelist_count")) * pragma("page_size");
    rawBytes = Number(
      (db.prepare(
        "SELECT coalesce(sum(pgsize), 0) AS b FROM dbstat WHERE name IN ('raw', 'chunks')",
      ).get() as { b: number }).b,
    );
  } finally {
    db.close();
    Deno.removeSync(dir, { recursive: true });
  }
  const us = (ms: number) => Math.round(ms * 1000 / TOTAL * 100) / 100;
  const per = (b: number) => Math.round(b / TOTAL * 10) / 10;
  return {
    group,
    mergeEvery,
    writeUs: us(writeMs),
    mergeUs: us(mergeMs),
    cpuUs: us(cpuMicros / 1000),
    rawBytesPerSample: per(rawBytes),
    bytesPerSample: per(bytes),
  };
}

out(`${TOTAL} samples of ${METERS} meters in turn; µs per sample`);
out("group (durable write) | merge every | write | merge | total | CPU | bytes: raw, all");
const cases: Case[] = [];
for (
  const [group, mergeEvery] of [[100, 50_000], [1_000, 50_000], [1_000, 15_000], [5_000, 50_000]]
) {
  const c = run(group, mergeEvery);
  cases.push(c);
  out(
    `${group} | ${mergeEvery} | ${c.writeUs} | ${c.mergeUs} | ${
      Math.round((c.writeUs + c.mergeUs) * 100) / 100
    } | ${c.cpuUs} | ${c.rawBytesPerSample}, ${c.bytesPerSample}`,
  );
}
out(JSON.stringify({ meters: METERS, samples: TOTAL, cases }));
