/**
 * `deno run -A scripts/bench_billing.ts`: a billing run (services/billing.ts `runBilling`) over
 * 10,000 units and then 20,000 units (issue 4, "Measures"): demo-sized stations of 10 units
 * with one sensor each, in one zone, one month of meter readings per sensor in the embedded
 * SQLite store, a temp Deno KV. Reports the run's total time and time per unit (the setup is
 * not timed).
 *
 * Readings: one month (2026-01) per sensor at `--step-min` minutes (default 15, i.e. 2,976
 * samples per sensor, ~30 million for 10,000 sensors) instead of the portal's 10-second
 * readings: 267,840 samples per sensor would take hours to generate. The run reads two hourly
 * series per unit (existence and counter delta), so its cost depends on the samples per hour
 * only through the SQLite range scans. Use `--step-min 1` to check that.
 *
 * Options: `--units 10000,20000`, `--units-per-station 10`, `--step-min 15`. Prints a table
 * and the figures as JSON last.
 */
import { parseArgs } from "node:util";
import type { Deps } from "../services/deps.ts";
import { loadConfig } from "../services/config.ts";
import { loadI18n } from "../services/i18n.ts";
import { createLogger } from "../services/log.ts";
import { DEFAULT_THROTTLE } from "../db/throttle.ts";
import { openSqliteStore } from "../db/telemetry/sqlite.ts";
import { createDevice, type StoredDevice } from "../db/devices.ts";
import { createZone } from "../db/zones.ts";
import { defaultZone } from "../core/zone.ts";
import { runBilling } from "../services/billing.ts";
import { periodBounds } from "../services/billing.ts";
import { parsePeriod } from "../core/periods.ts";
import { sensorTopicPrefix, stationTopicPrefix } from "../core/devices.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    units: { type: "string", default: "10000,20000" },
    "units-per-station": { type: "string", default: "10" },
    "step-min": { type: "string", default: "15" },
  },
});
const sizes = args.values.units.split(",").map(Number);
const perStation = Number(args.values["units-per-station"]);
const stepMs = Number(args.values["step-min"]) * 60_000;
const PERIOD = "2026-01";
const print = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));

interface Figure {
  units: number;
  stations: number;
  samples: number;
  setup_s: number;
  run_s: number;
  ms_per_unit: number;
  bills_created: number;
  failures: number;
}

async function bench(units: number): Promise<Figure> {
  const dir = await Deno.makeTempDir({ prefix: "bench_billing_" });
  const kv = await Deno.openKv(`${dir}/kv.sqlite`);
  const telemetry = openSqliteStore(`${dir}/telemetry.sqlite`, { batchSize: 50_000 });
  const config = loadConfig({ DATA_DIR: dir });
  const deps: Deps = {
    kv,
    config,
    i18n: await loadI18n(),
    assets: { dir: new URL(`file://${dir}/`), manifest: { css: "", islands: {} } },
    secret: "bench-secret-bench-secret-bench-secret-0",
    now: Date.now,
    log: createLogger("error"),
    throttle: DEFAULT_THROTTLE,
    telemetry,
  } as Deps;
  try {
    const t0 = performance.now();
    const zone = await createZone(kv, {
      ...defaultZone("Bench"),
      enable_levels: true,
      price_low: 1.015,
      price_low_threshold: 150,
      price_middle: 1.23,
      price_middle_threshold: 280,
      price_high: 3.6,
      price_high_threshold: 0,
      base_tariff: 40,
      tax_percentage: 16,
    }, Date.now());
    const { from, to } = periodBounds(parsePeriod(PERIOD), config.utcOffsetMinutes);
    const stations = Math.ceil(units / perStation);
    const now = new Date().toISOString();
    let samples = 0;
    let made = 0;
    for (let s = 0; s < stations; s++) {
      const serial = `BST-${s}`;
      const n = Math.min(perStation, units - made);
      const unitIds = Array.from({ length: n }, (_, i) => `unit_${i + 1}`);
      const st = await createDevice(kv, null, (id): StoredDevice => ({
        id,
        type: "station",
        name: `Bench ${s}`,
        serial_number: serial,
        station_id: `bst_${s}`,
        parent_id: null,
        zone_id: zone.id,
        location: "{}",
        customer_id: null,
        tenant_id: null,
        config: {
          mqtt: { username: `mq-${serial}`, topic_prefix: stationTopicPrefix(serial) },
          station: {
            ssrs: [{ id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 }],
            units: unitIds.map((u) => ({ id: u, name: u, ssr_id: "ssr_1", station_id: id })),
          },
        },
        created_at: now,
        updated_at: now,
        mqtt_password_hash: "x",
      } as unknown as StoredDevice));
      if (!st.ok) throw new Error(`station ${s}: ${JSON.stringify(st)}`);
      for (const [i, unit] of unitIds.entries()) {
        const ss = `BSE-${s}-${i}`;
        const se = await createDevice(kv, st.device.id, (id, parent): StoredDevice => ({
          id,
          type: "sensor",
          name: ss,
          serial_number: ss,
          station_id: `${parent!.station_id}_${ss}`,
          parent_id: parent!.id,
          zone_id: null,
          location: "",
          customer_id: null,
          tenant_id: null,
          config: {
            mqtt: { username: `mq-${ss}`, topic_prefix: sensorTopicPrefix(ss) },
            sensor: { unit_id: unit, tenant_id: null, ip_address: "10.0.0.1" },
          },
          created_at: now,
          updated_at: now,
          mqtt_password_hash: "x",
        } as unknown as StoredDevice));
        if (!se.ok) throw new Error(`sensor ${ss}: ${JSON.stringify(se)}`);
        // One month of counter readings, 0.1–0.5 kWh per step.
        const rate = 0.1 + ((s * 7 + i) % 5) / 10;
        const batch = [];
        let kwh = 1000;
        for (let ts = from - stepMs; ts < to; ts += stepMs) {
          batch.push({
            serial: ss,
            ts,
            values: { total_energy_kwh: Math.round(kwh * 1000) / 1000 },
          });
          kwh += rate * stepMs / 3_600_000;
        }
        samples += batch.length;
        telemetry.write(batch);
        made++;
      }
      if (s % 50 === 49) await telemetry.flush();
    }
    await telemetry.flush();
    const setup = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const res = await runBilling(deps, zone.id, PERIOD, { author: "bench" });
    const run = (performance.now() - t1) / 1000;
    return {
      units,
      stations,
      samples,
      setup_s: Math.round(setup * 10) / 10,
      run_s: Math.round(run * 100) / 100,
      ms_per_unit: Math.round(run * 1000 / units * 1000) / 1000,
      bills_created: res.bills_created,
      failures: res.failures.length,
    };
  } finally {
    await telemetry.close();
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const figures: Figure[] = [];
for (const units of sizes) {
  const f = await bench(units);
  figures.push(f);
  print(
    `${f.units} units (${f.stations} stations, ${f.samples} samples, setup ${f.setup_s} s): ` +
      `run ${f.run_s} s, ${f.ms_per_unit} ms/unit, ${f.bills_created} bills, ${f.failures} failures`,
  );
}
print(JSON.stringify({ step_minutes: stepMs / 60_000, figures }));
