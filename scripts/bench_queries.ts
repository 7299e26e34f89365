/**
 * `deno run -A scripts/bench_queries.ts`: the query measure of the time-series store.
 *
 * 1. Ingest: one year (2024, a leap year) of 10-second samples of one Shelly Pro 3EM
 *    (all 27 measurement keys: three phases with a daily load curve, counters that only
 *    grow) is written into a temporary SQLite file through the store's `write()`/`flush()`,
 *    one simulated day per flush, with `prune()` run daily as a portal would (35 days of
 *    raw samples kept). Reports samples per second.
 * 2. Queries, each run `--runs` times (default 200) on random days/months, p50 and p95:
 *    a day chart of total_power (15-minute points), a month chart (daily points), the
 *    energy of a calendar month and of an unaligned 30-day window (counterDelta), the daily
 *    energy of a month (counterSeries) and `latest`.
 *
 * Prints a table and, as its last line, the figures as JSON. Target: every query under
 * 20 ms at p95. Options: `--runs N`, `--days N` (default 366), `--worker` (write in the
 * store's writer worker), `--keep` (keep the file).
 */
import { openSqliteStore } from "../db/telemetry/sqlite.ts";
import type { Sample } from "../db/telemetry/mod.ts";
import { prng } from "../ingest/sim.ts";
import { percentile, timings } from "./_bench_stats.ts";

const SERIAL = "SPEM-BENCH-0001";
const STEP = 10_000, DAY = 86_400_000;
const START = Date.UTC(2024, 0, 1);

const args = Deno.args;
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = opt("runs", 200);
const DAYS = opt("days", 366);
const KEEP = args.includes("--keep");
const WORKER = args.includes("--worker");

const out = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

/** Household-like load (W) of one phase at an hour of the day. */
function load(hour: number, phase: number, noise: number): number {
  const morning = 900 * Math.exp(-(((hour - 7.5) / 1.2) ** 2));
  const evening = 1600 * Math.exp(-(((hour - 20) / 2) ** 2));
  const base = 120 + 40 * phase;
  return Math.max(0, (base + morning + evening) / (1 + phase * 0.3) + noise);
}

/** Generates one day of samples; counters carry over in `state`. */
function day(start: number, rnd: () => number, state: number[]): Sample[] {
  const samples: Sample[] = [];
  for (let ts = start; ts < start + DAY; ts += STEP) {
    const hour = (ts - start) / 3_600_000;
    const p = [0, 1, 2].map((i) => load(hour, i, 60 * (rnd() - 0.5)));
    const v = [0, 1, 2].map(() => 228 + 6 * rnd());
    const pf = [0, 1, 2].map(() => 0.85 + 0.14 * rnd());
    const s = [0, 1, 2].map((i) => p[i] / pf[i]);
    const c = [0, 1, 2].map((i) => s[i] / v[i]);
    for (let i = 0; i < 3; i++) state[i] += (p[i] * STEP) / 3_600_000 / 1000; // kWh
    const total = state[0] + state[1] + state[2];
    const values: Sample["values"] = {
      total_power: p[0] + p[1] + p[2],
      total_apparent_power: s[0] + s[1] + s[2],
      total_current: c[0] + c[1] + c[2],
      total_energy_kwh: total,
      total_returned_kwh: 0,
      total_pf: (p[0] + p[1] + p[2]) / (s[0] + s[1] + s[2]),
    };
    (["a", "b", "c"] as const).forEach((ph, i) => {
      values[`phase_${ph}_power`] = p[i];
      values[`phase_${ph}_apparent_power`] = s[i];
      values[`phase_${ph}_current`] = c[i];
      values[`phase_${ph}_voltage`] = v[i];
      values[`phase_${ph}_pf`] = pf[i];
      values[`phase_${ph}_energy_kwh`] = state[i];
      values[`phase_${ph}_returned_kwh`] = 0;
    });
    samples.push({ serial: SERIAL, ts, values });
  }
  return samples;
}

async function measure(
  run: (i: number) => Promise<unknown>,
): Promise<{ p50: number; p95: number; max: number }> {
  const times = await timings(run, RUNS, 5);
  return {
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    max: times[times.length - 1],
  };
}

const dir = await Deno.makeTempDir({ prefix: "bench_queries_" });
const path = `${dir}/telemetry.db`;
const store = openSqliteStore(path, { batchSize: 10_000, worker: WORKER });
const rnd = prng(2024);
const counters = [1520.4, 830.1, 402.7];

out(`Ingest: ${DAYS} days of 10-second samples (27 keys each)${WORKER ? ", writer worker" : ""}`);
let genMs = 0, writeMs = 0, pruneMs = 0, samplesTotal = 0;
for (let d = 0; d < DAYS; d++) {
  const t0 = performance.now();
  const samples = day(START + d * DAY, rnd, counters);
  const t1 = performance.now();
  store.write(samples);
  await store.flush();
  const t2 = performance.now();
  await store.prune(START + (d + 1) * DAY);
  const t3 = performance.now();
  genMs += t1 - t0;
  writeMs += t2 - t1;
  pruneMs += t3 - t2;
  samplesTotal += samples.length;
  if ((d + 1) % 61 === 0) {
    out(`  day ${d + 1}: ${Math.round(samplesTotal / ((writeMs + pruneMs) / 1000))} samples/s`);
  }
}
const ingestRate = samplesTotal / ((writeMs + pruneMs) / 1000);
const fileBytes = [path, `${path}-wal`].reduce((sum, p) => {
  try {
    return sum + Deno.statSync(p).size;
  } catch {
    return sum;
  }
}, 0);
out(
  `  ${samplesTotal} samples written in ${(writeMs / 1000).toFixed(1)} s, pruned in ${
    (pruneMs / 1000).toFixed(1)
  } s ` +
    `(generation ${(genMs / 1000).toFixed(1)} s not counted): ${
      Math.round(ingestRate)
    } samples/s; ` +
    `file ${(fileBytes / 1e6).toFixed(0)} MB`,
);

const END = START + DAYS * DAY;
const qrnd = prng(7);
const randomDay = () => START + Math.floor(qrnd() * DAYS) * DAY;
const months = Array.from({ length: 12 }, (_, m) => Date.UTC(2024, m, 1)).filter((m) => m < END);
const randomMonth = () => {
  const i = Math.floor(qrnd() * months.length);
  return [months[i], Date.UTC(2024, i + 1, 1)];
};

const queries: [string, (i: number) => Promise<unknown>][] = [
  ["day chart: total_power, 15-min avg (96 points)", () => {
    const d = randomDay();
    return store.series(SERIAL, "total_power", d, d + DAY, "15m", "avg");
  }],
  ["month chart: total_power, daily avg", () => {
    const [a, b] = randomMonth();
    return store.series(SERIAL, "total_power", a, b, "1d", "avg");
  }],
  ["energy delta: calendar month", () => {
    const [a, b] = randomMonth();
    return store.counterDelta(SERIAL, "total_energy_kwh", a, b);
  }],
  ["energy delta: unaligned 30-day window", () => {
    const a = START + Math.floor(qrnd() * (END - START - 30 * DAY));
    return store.counterDelta(SERIAL, "total_energy_kwh", a, a + 30 * DAY);
  }],
  ["month chart: daily energy (counterSeries)", () => {
    const [a, b] = randomMonth();
    return store.counterSeries(SERIAL, "total_energy_kwh", a, b, "1d");
  }],
  ["latest", () => store.latest(SERIAL)],
];

out();
out(`Queries (${RUNS} runs each, ms)`);
out(`${"query".padEnd(48)} ${"p50".padStart(8)} ${"p95".padStart(8)} ${"max".padStart(8)}`);
const results: Record<string, { p50: number; p95: number; max: number }> = {};
for (const [name, run] of queries) {
  const r = await measure(run);
  results[name] = r;
  out(
    `${name.padEnd(48)} ${r.p50.toFixed(3).padStart(8)} ${r.p95.toFixed(3).padStart(8)} ${
      r.max.toFixed(3).padStart(8)
    }`,
  );
}
const worst = Math.max(...Object.values(results).map((r) => r.p95));
out(`worst p95: ${worst.toFixed(3)} ms (target < 20 ms): ${worst < 20 ? "met" : "NOT met"}`);

await store.close();
if (!KEEP) await Deno.remove(dir, { recursive: true });
out(JSON.stringify({
  samples: samplesTotal,
  worker: WORKER,
  ingestSamplesPerSecond: Math.round(ingestRate),
  fileMB: Math.round(fileBytes / 1e6),
  runs: RUNS,
  queriesMs: Object.fromEntries(
    Object.entries(results).map((
      [k, r],
    ) => [k, { p50: +r.p50.toFixed(3), p95: +r.p95.toFixed(3) }]),
  ),
  targetMet: worst < 20,
}));
