/**
 * `deno run -A scripts/bench_meters.ts`: what reading a unit across its meters costs.
 *
 * A temporary KV file and SQLite store hold 60 days of 1-minute readings of two units: one
 * that always had its meter, one whose meter was replaced halfway. Each `--runs` times (default
 * 200) on random days, p50 and p95 of: the store's counter usage of one serial (what the
 * figures read before meters over time), `unitMeterUsage` of the unit with one meter and of the
 * replaced one (a history read plus one store query per meter), and a month chart of daily
 * energy through `unitMeters` (one history read, 30 day spans). Target: every unit read under
 * 20 ms at p95, as the store's own queries.
 *
 * Prints a table and, as its last line, the figures as JSON.
 */
import { openSqliteStore } from "../db/telemetry/sqlite.ts";
import { counterUsageOf, type Sample } from "../db/telemetry/mod.ts";
import { unitMeters, unitMeterUsage } from "../services/devices/meter_usage.ts";
import { meterHistoryEntry, stageMeterHistory } from "../db/meters.ts";
import { percentile, timings } from "./_bench_stats.ts";

const DAY = 86_400_000, MIN = 60_000;
const START = Date.UTC(2026, 0, 1);
const DAYS = 60;
const args = Deno.args;
const i = args.indexOf("--runs");
const RUNS = i >= 0 ? Number(args[i + 1]) : 200;

const print = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

const dir = await Deno.makeTempDir({ prefix: "bench_meters_" });
const kv = await Deno.openKv(`${dir}/kv.sqlite`);
const telemetry = openSqliteStore(`${dir}/telemetry.sqlite`);
const deps = { kv, telemetry };
try {
  const swap = START + (DAYS / 2) * DAY;
  // Unit 1: meter ONE throughout; unit 2: OLD until `swap`, then NEW from 0.2 kWh.
  const op = kv.atomic();
  stageMeterHistory(op, await meterHistoryEntry(kv, 2), 2, [
    { serial: "OLD", from: -Infinity, to: swap, first_kwh: null, last_kwh: null },
    { serial: "NEW", from: swap, to: null, first_kwh: 0.2, last_kwh: null },
  ]);
  await op.commit();
  for (let d = 0; d < DAYS; d++) {
    const batch: Sample[] = [];
    for (let m = 0; m < 1440; m++) {
      const ts = START + d * DAY + m * MIN;
      const kwh = (d * 1440 + m) * 0.01;
      batch.push({ serial: "ONE", ts, values: { total_energy_kwh: kwh } });
      batch.push(
        ts < swap
          ? { serial: "OLD", ts, values: { total_energy_kwh: 1000 + kwh } }
          : { serial: "NEW", ts, values: { total_energy_kwh: 0.2 + kwh - 432 } },
      );
    }
    telemetry.write(batch);
    await telemetry.flush();
  }
  const one = { id: 1, serial_number: "ONE" }, replaced = { id: 2, serial_number: "NEW" };
  const day = (n: number) => START + ((n * 7919) % (DAYS - 30)) * DAY + 3 * 3_600_000;
  const month = (n: number) => ({ from: day(n), to: day(n) + 30 * DAY });
  const cases: [string, (n: number) => Promise<unknown>][] = [
    ["store counter usage of one serial (before)", (n) => {
      const r = month(n);
      return counterUsageOf(telemetry, "ONE", "total_energy_kwh", r.from, r.to);
    }],
    ["unitMeterUsage, one meter", (n) => {
      const r = month(n);
      return unitMeterUsage(deps, one, r.from, r.to);
    }],
    ["unitMeterUsage, replaced meter", (n) => {
      const r = month(n);
      return unitMeterUsage(deps, replaced, r.from, r.to);
    }],
    ["month chart (30 days) of the replaced unit", async (n) => {
      const m = await unitMeters(deps, replaced);
      const r = month(n);
      for (let d = r.from; d < r.to; d += DAY) await m.counterDelta("total_energy_kwh", d, d + DAY);
    }],
  ];
  const out: Record<string, { p50: number; p95: number }> = {};
  for (const [name, run] of cases) {
    const t = await timings(run, RUNS, 10);
    out[name] = { p50: percentile(t, 0.5), p95: percentile(t, 0.95) };
  }
  print("read                                          p50 ms   p95 ms");
  for (const [name, f] of Object.entries(out)) {
    print(
      `${name.padEnd(44)} ${f.p50.toFixed(2).padStart(8)} ${f.p95.toFixed(2).padStart(8)}`,
    );
  }
  print(JSON.stringify(out));
} finally {
  await telemetry.close();
  kv.close();
  await Deno.remove(dir, { recursive: true });
}
