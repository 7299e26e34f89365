/**
 * `deno task bench:billing`: the billing run (services/billing/ `runBilling`) of issue 4,
 * "Measures", on the embedded SQLite store (a file, writer worker) and a Deno KV file:
 *
 * 1. Density: the same units billed twice, once with one month of real 10-second readings
 *    (267,840 per meter, written through the store's normal write path) and once with hourly
 *    readings: one run each, then the median of 15 dry runs each (taken in turns, after a
 *    warm-up). The run reads rollups and counters only, so the time per unit must match.
 *    (20 meters by default: 5.4 million samples take about a minute to write; `--dense-units`.)
 * 2. Scale: 10,000 and then 20,000 units (fresh stores each), total time, ms per unit and the
 *    ratio 20k/10k (2 is linear). A month of 10-second readings for 10,000 meters is 2.7
 *    billion samples (over 100 GB), so these meters read hourly on the period's first and
 *    last day and daily in between: the run reads the same rollup rows (hours at the edges,
 *    days in the middle) as it would for denser readings, as step 1 shows.
 * 3. The engine alone: `computeUnitBill()` over a mix of tariffs (flat, CFE tiers, seasonal
 *    tiers, commercial with distribution, capacity and compensation) and `computeCustomerBill()`
 *    per station, in bills per second.
 *
 * Stations have the demo station's shape (services/demo_devices.ts): 3 units on 3 SSRs, one
 * meter per unit, unit 1 occupied by a tenant (notified of each new bill), a customer, the
 * demo's CFE tariff 1 zone. Setup is not timed.
 *
 * Options: `--units 10000,20000`, `--dense-units 20`, `--units-per-station 3`,
 * `--skip-dense`, `--skip-scale`, `--skip-engine`. Prints lines and then the figures as JSON.
 */
import { engine } from "./_bench_engine.ts";
import { parseArgs } from "node:util";
import type { Deps } from "../services/deps.ts";
import { loadConfig } from "../services/platform/config.ts";
import { loadI18n } from "../services/platform/i18n.ts";
import { createLogger } from "../services/platform/log.ts";
import { DEFAULT_THROTTLE } from "../db/throttle.ts";
import { openSqliteStore } from "../db/telemetry/sqlite.ts";
import type { Sample } from "../db/telemetry/mod.ts";
import { createZone } from "../db/zones.ts";
import { createUser } from "../db/users.ts";
import { demoZoneBody } from "../services/demo_devices.ts";
import { runBilling } from "../services/billing/mod.ts";
import { clockOf } from "../services/platform/clock.ts";
import { parsePeriod } from "../core/periods.ts";
import { createBenchMeter, createBenchStation } from "./_bench_devices.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    units: { type: "string", default: "10000,20000" },
    "dense-units": { type: "string", default: "20" },
    "units-per-station": { type: "string", default: "3" },
    "skip-dense": { type: "boolean", default: false },
    "skip-scale": { type: "boolean", default: false },
    "skip-engine": { type: "boolean", default: false },
  },
});
const PERIOD = "2026-01";
const H = 3_600_000;
const print = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** How a meter's readings are spaced over the month. */
type Readings = "10s" | "1h" | "edges";

/** The readings of one meter: one counter key plus what a Shelly Pro 3EM sends with it. */
function* readings(serial: string, kind: Readings, from: number, to: number, rate: number) {
  const step = (ts: number) =>
    kind === "10s" ? 10_000 : kind === "1h" || ts < from + 24 * H || ts >= to - 24 * H ? H : 24 * H;
  for (let ts = from - step(from - H); ts < to; ts += step(ts)) {
    const kwh = 1000 + rate * (ts - from) / H;
    yield {
      serial,
      ts,
      values: {
        total_energy_kwh: Math.round(kwh * 100_000) / 100_000,
        total_power: rate * 1000,
        phase_a_voltage: 229.5,
      },
    } satisfies Sample;
  }
}

interface World {
  deps: Deps;
  zoneId: number;
  samples: number;
  setup_s: number;
  close(): Promise<void>;
}

/** Zone, customer, stations of the demo's shape with meters and their readings. */
async function world(units: number, perStation: number, kind: Readings): Promise<World> {
  const t0 = performance.now();
  const dir = await Deno.makeTempDir({ prefix: "bench_billing_" });
  const kv = await Deno.openKv(`${dir}/kv.sqlite`);
  const telemetry = openSqliteStore(`${dir}/telemetry.sqlite`, {
    batchSize: 50_000,
    worker: true,
  });
  const config = loadConfig({ DATA_DIR: dir });
  const deps = {
    kv,
    config,
    i18n: await loadI18n(),
    secret: "bench-secret-bench-secret-bench-secret-0",
    now: Date.now,
    log: createLogger("error"),
    throttle: DEFAULT_THROTTLE,
    telemetry,
  } as Deps;
  const close = async () => {
    await telemetry.close();
    kv.close();
    await Deno.remove(dir, { recursive: true });
  };
  const now = Date.now();
  const zone = await createZone(
    kv,
    demoZoneBody("CFE Tarifa 1"),
    now,
  );
  const customer = await createUser(kv, {
    email: "owner@bench.mx",
    full_name: "Owner",
    role: "customer",
    password_hash: "x",
  }, now);
  const { from, to } = clockOf(deps).periodBounds(parsePeriod(PERIOD));
  let samples = 0;
  let pending = 0;
  for (let s = 0, made = 0; made < units; s++) {
    const serial = `BST-${s}`;
    const n = Math.min(perStation, units - made);
    const ids = Array.from({ length: n }, (_, i) => i + 1);
    const tenant = await createUser(kv, {
      email: `tenant${s}@bench.mx`,
      full_name: `Tenant ${s}`,
      role: "user",
      language: s % 2 === 0 ? "es" : "en",
      password_hash: "x",
    }, now);
    const station = await createBenchStation(kv, {
      name: `Residencial ${s}`,
      serial,
      stationId: `bst_${s}`,
      zoneId: zone.id,
      customerId: customer.id,
      ssrs: ids.map((i) => ({
        id: `ssr_${i}`,
        name: `SSR ${i}`,
        type: i === 3 ? "emergency" : "normal",
        gpio_pin: i - 1,
      })),
      units: ids.map((i) => ({ id: `unit_${i}`, name: `Depto ${100 + i}`, ssr_id: `ssr_${i}` })),
      at: now,
    });
    for (const i of ids) {
      const ss = `BSE-${s}-${i}`;
      await createBenchMeter(kv, station.id, {
        name: `Medidor ${ss}`,
        serial: ss,
        unitId: `unit_${i}`,
        tenantId: i === 1 ? tenant.id : null,
        at: now,
      });
      // 0.1 to 0.9 kW on average: 74 to 670 kWh in the month, across every tier.
      const rate = 0.1 + ((s * 7 + i) % 9) / 10;
      let batch: Sample[] = [];
      for (const sample of readings(ss, kind, from, to, rate)) {
        batch.push(sample);
        if (batch.length === 20_000) {
          telemetry.write(batch);
          samples += batch.length;
          pending += batch.length;
          batch = [];
        }
        if (pending >= 400_000) {
          await telemetry.flush();
          pending = 0;
        }
      }
      telemetry.write(batch);
      samples += batch.length;
      pending += batch.length;
      made++;
    }
  }
  await telemetry.flush();
  return {
    deps,
    zoneId: zone.id,
    samples,
    setup_s: round((performance.now() - t0) / 1000, 1),
    close,
  };
}

/** One timed billing run of a fresh world. */
interface RunFigure {
  units: number;
  readings: Readings;
  samples: number;
  setup_s: number;
  run_s: number;
  ms_per_unit: number;
  /** Median of three dry runs (the same reads, nothing written), ms per unit. */
  dry_ms_per_unit: number;
  bills_created: number;
  bills_estimated: number;
  failures: number;
}

async function timedRun(units: number, kind: Readings): Promise<RunFigure> {
  const perStation = Number(args.values["units-per-station"]);
  const w = await world(units, perStation, kind);
  try {
    const t1 = performance.now();
    const res = await runBilling(w.deps, w.zoneId, PERIOD, { author: "bench" });
    const run = (performance.now() - t1) / 1000;
    const dry: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t2 = performance.now();
      await runBilling(w.deps, w.zoneId, PERIOD, { dryRun: true });
      dry.push(performance.now() - t2);
    }
    dry.sort((a, b) => a - b);
    const f: RunFigure = {
      units,
      readings: kind,
      samples: w.samples,
      setup_s: w.setup_s,
      run_s: round(run, 2),
      ms_per_unit: round(run * 1000 / units, 3),
      dry_ms_per_unit: round(dry[1] / units, 3),
      bills_created: res.bills_created,
      bills_estimated: res.bills_estimated,
      failures: res.failures.length,
    };
    print(
      `${f.units} units, ${f.readings} readings (${f.samples} samples, setup ${f.setup_s} s): ` +
        `run ${f.run_s} s, ${f.ms_per_unit} ms/unit (dry run ${f.dry_ms_per_unit} ms/unit), ` +
        `${f.bills_created} bills, ${f.bills_estimated} estimated, ${f.failures} failures`,
    );
    return f;
  } finally {
    await w.close();
  }
}

/** Median time per unit (ms) of `n` dry runs of each world, taken in turns. */
async function dryMedians(worlds: World[], units: number, n: number): Promise<number[]> {
  const times: number[][] = worlds.map(() => []);
  for (let i = 0; i < n; i++) {
    for (const [j, w] of worlds.entries()) {
      const t0 = performance.now();
      await runBilling(w.deps, w.zoneId, PERIOD, { dryRun: true });
      times[j].push((performance.now() - t0) / units);
    }
  }
  return times.map((t) => round(t.sort((a, b) => a - b)[Math.floor(t.length / 2)], 3));
}

const figures: Record<string, unknown> = {};
if (!args.values["skip-dense"]) {
  const n = Number(args.values["dense-units"]);
  const perStation = Number(args.values["units-per-station"]);
  const worlds = [await world(n, perStation, "10s"), await world(n, perStation, "1h")];
  try {
    await dryMedians(worlds, n, 3); // warm-up: the first runs compile the code
    const out = [];
    for (const [i, w] of worlds.entries()) {
      const t0 = performance.now();
      const res = await runBilling(w.deps, w.zoneId, PERIOD, { author: "bench" });
      const run = performance.now() - t0;
      out.push({
        units: n,
        readings: i === 0 ? "10s" : "1h",
        samples: w.samples,
        setup_s: w.setup_s,
        run_ms: round(run, 1),
        ms_per_unit: round(run / n, 3),
        bills_created: res.bills_created,
        failures: res.failures.length,
      });
    }
    const dry = await dryMedians(worlds, n, 15);
    for (const [i, f] of out.entries()) {
      print(
        `${f.units} units, ${f.readings} readings (${f.samples} samples, setup ${f.setup_s} s): ` +
          `run ${f.ms_per_unit} ms/unit, median of 15 dry runs ${dry[i]} ms/unit`,
      );
    }
    figures.density = {
      dense: { ...out[0], dry_ms_per_unit: dry[0] },
      hourly: { ...out[1], dry_ms_per_unit: dry[1] },
      dry_ratio_10s_to_1h: round(dry[0] / dry[1], 2),
    };
    print(`10-second / hourly readings, time per unit (dry runs): ${round(dry[0] / dry[1], 2)}`);
  } finally {
    for (const w of worlds) await w.close();
  }
}
if (!args.values["skip-scale"]) {
  const runs: RunFigure[] = [];
  for (const units of args.values.units.split(",").map(Number)) {
    runs.push(await timedRun(units, "edges"));
  }
  figures.scale = runs;
  if (runs.length === 2) {
    const ratio = round(runs[1].run_s / runs[0].run_s, 2);
    figures.ratio = ratio;
    print(`ratio ${runs[1].units}/${runs[0].units} units: ${ratio}`);
  }
}
if (!args.values["skip-engine"]) {
  const e = engine();
  figures.engine = e;
  print(
    `engine: computeUnitBill ${e.unit_bills_per_s} bills/s, ` +
      `computeCustomerBill ${e.customer_bills_per_s} bills/s`,
  );
}
print(JSON.stringify(figures));
