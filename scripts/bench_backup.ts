/**
 * `deno run -A scripts/bench_backup.ts`: a backup of a portal while it writes. A data folder
 * with `--entries` KV records and `--samples` readings (100 meters, every 10 s) is backed up
 * twice while a writer sets KV records one after another: with the copy on the thread that
 * serves (as `deno task backup`'s own process does it) and on a thread of its own (as the
 * portal's schedule does it, `backup_worker.ts`). Prints how long each took, the archive's
 * size, the longest stall of the serving thread and the KV writes' latency meanwhile, then the
 * figures as JSON.
 *
 * Options: `--entries N` (default 20000), `--samples N` (default 300000).
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../services/platform/config.ts";
import { openStores } from "../services/platform/stores.ts";
import { createLogger } from "../services/platform/log.ts";
import { createBackup } from "../services/platform/backup.ts";
import { backupOffThread } from "../services/platform/backup_schedule.ts";
import { percentile } from "./_bench_stats.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    entries: { type: "string", default: "20000" },
    samples: { type: "string", default: "300000" },
  },
}).values;
const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

const dir = await Deno.makeTempDir({ prefix: "bench-backup-" });
const config = loadConfig({ DATA_DIR: `${dir}/data` });
const stores = await openStores(config, createLogger("error"));
const { kv, telemetry } = stores.deps;
try {
  for (let i = 0; i < Number(args.entries); i += 500) {
    const op = kv.atomic();
    for (let j = i; j < i + 500; j++) op.set(["bench", j], { j, text: "x".repeat(200) });
    await op.commit();
  }
  const start = Date.UTC(2026, 9, 1);
  for (let n = 0; n < Number(args.samples); n += 5_000) {
    telemetry.write(Array.from({ length: 5_000 }, (_, i) => ({
      serial: `BENCH-${(n + i) % 100}`,
      ts: start + Math.floor((n + i) / 100) * 10_000,
      values: { total_power: i % 900, total_energy_kwh: (n + i) / 100 },
    })));
    await telemetry.flush();
  }

  const cases: Record<string, unknown> = {};
  for (const where of ["same thread", "own thread"] as const) {
    const target = `${dir}/${where.replace(" ", "-")}.tar.gz`;
    let stall = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 5);
    const writes: number[] = [];
    let done = false;
    const writer = (async () => {
      for (let i = 0; !done; i++) {
        const t0 = performance.now();
        await kv.set(["bench_live", i], i);
        writes.push(performance.now() - t0);
      }
    })();
    const t0 = performance.now();
    const manifest = where === "same thread"
      ? await createBackup(config, target)
      : await backupOffThread(config, target, Date.now());
    const ms = performance.now() - t0;
    done = true;
    await writer;
    clearInterval(ticker);
    writes.sort((a, b) => a - b);
    const size = (await Deno.stat(target)).size;
    const figures = {
      backup_ms: Math.round(ms),
      archive_mb: Math.round(size / 1e5) / 10,
      readings: manifest.counts.readings,
      longest_stall_ms: Math.round(stall),
      kv_writes_meanwhile: writes.length,
      kv_write_p50_ms: Math.round(percentile(writes, 0.5) * 100) / 100,
      kv_write_max_ms: Math.round(writes[writes.length - 1] * 100) / 100,
    };
    cases[where] = figures;
    out(`backup, copy on the ${where}: ${JSON.stringify(figures)}`);
  }
  out(JSON.stringify(cases));
} finally {
  await stores.close();
  await Deno.remove(dir, { recursive: true });
}
