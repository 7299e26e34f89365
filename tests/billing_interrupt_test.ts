/**
 * A billing run killed part way (SIGKILL of `scripts/bill.ts`, the `deno task bill` command)
 * leaves every station either fully billed or not billed at all, and running it again
 * completes the period without duplicating a bill (issue 4, "What bad input gets").
 */
import assert from "node:assert/strict";
import { bulkStation } from "./_bulk_stations.ts";
import { createZone } from "../db/zones.ts";
import { listCustomerBills, listUnitBills } from "../db/bills.ts";
import { defaultZone } from "../core/zone.ts";
import { parsePeriod } from "../core/periods.ts";
import { openSqliteStore } from "../db/telemetry/sqlite.ts";
import { loadConfig } from "../services/platform/config.ts";
import { periodBounds } from "../services/billing/mod.ts";

const PERIOD = "2026-01";
const STATIONS = 400;
const UNITS = 2;
const SCRIPT = new URL("../scripts/bill.ts", import.meta.url).pathname;

/** Stations of two metered units in one zone, written straight to the stores in `dir`. */
async function seed(dir: string): Promise<number> {
  const kv = await Deno.openKv(`${dir}/portal.kv`);
  const telemetry = openSqliteStore(`${dir}/telemetry.sqlite`);
  try {
    const zone = await createZone(kv, {
      ...defaultZone("Interrupted"),
      price_low: 1.5,
      tax_percentage: 16,
      customer_commission: 10,
    }, Date.now());
    const { from, to } = periodBounds(parsePeriod(PERIOD), loadConfig({}).utcOffsetMinutes);
    for (let s = 0; s < STATIONS; s++) {
      const station = await bulkStation(kv, {
        serial: `INT-${s}`,
        name: `Station ${s}`,
        zoneId: zone.id,
        units: UNITS,
        sensorPrefix: `INS-${s}`,
      });
      telemetry.write(station.units.flatMap(({ serial }, i) => [
        { serial, ts: from + 60_000, values: { total_energy_kwh: 100 } },
        { serial, ts: to - 60_000, values: { total_energy_kwh: 150 + i } },
      ]));
    }
    await telemetry.flush();
    return zone.id;
  } finally {
    kv.close();
    await telemetry.close();
  }
}

/** The bill command on `dir`'s stores. */
function billCommand(dir: string, zone: number, extra: string[] = []) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SCRIPT, "--zone", String(zone), "--period", PERIOD, ...extra],
    env: {
      DATA_DIR: dir,
      JWT_SECRET: "interrupt-secret-interrupt-secret-0123",
      LOG_LEVEL: "error",
    },
    stdout: "piped",
    stderr: "piped",
  });
}

/** Unit and customer bills per station, as stored. */
async function billsByStation(dir: string) {
  const kv = await Deno.openKv(`${dir}/portal.kv`);
  try {
    const units = (await listUnitBills(kv)).filter((b) => b.billing_month === PERIOD);
    const customers = (await listCustomerBills(kv)).filter((b) => b.billing_month === PERIOD);
    const by = new Map<number, { units: string[]; customer: number }>();
    const of = (id: number) => by.get(id) ?? by.set(id, { units: [], customer: 0 }).get(id)!;
    for (const b of units) of(b.station_id).units.push(b.unit_id);
    for (const b of customers) of(b.station_id).customer++;
    return by;
  } finally {
    kv.close();
  }
}

Deno.test("a billing run killed part way leaves whole stations only, and a rerun completes it without duplicates", async () => {
  const dir = await Deno.makeTempDir({ prefix: "billing-interrupt-" });
  try {
    const zone = await seed(dir);

    // Kill the run once it has reported some stations done.
    const child = billCommand(dir, zone).spawn();
    let done = 0;
    let text = "";
    read: for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      text += chunk;
      const lines = text.split("\n");
      text = lines.pop()!;
      for (const line of lines) {
        if (/^\[zone \d+\] \d+\/\d+ station/.test(line) && ++done === 20) {
          child.kill("SIGKILL");
          break read;
        }
      }
    }
    await child.stderr.cancel();
    const status = await child.status;
    assert.equal(status.signal, "SIGKILL", "the run was killed before it finished");

    const after = await billsByStation(dir);
    assert.ok(after.size >= 20, `at least the reported stations are billed (${after.size})`);
    assert.ok(after.size < STATIONS, "the kill came before the end of the run");
    for (const [station, b] of after) {
      assert.deepEqual(b.units.sort(), ["unit_1", "unit_2"], `station ${station} is whole`);
      assert.equal(b.customer, 1, `station ${station} has its customer bill`);
    }

    // Running it again completes the period; what was billed (finalized: the period has
    // ended) is left as it is, not duplicated.
    const rerun = await billCommand(dir, zone, ["--json"]).output();
    assert.equal(rerun.code, 0, new TextDecoder().decode(rerun.stderr));
    const result = JSON.parse(new TextDecoder().decode(rerun.stdout));
    assert.equal(result.stations_processed, STATIONS);
    assert.equal(result.bills_skipped, after.size * UNITS);
    assert.equal(result.bills_updated, 0);
    assert.equal(result.bills_created, (STATIONS - after.size) * UNITS);
    assert.equal(result.failures.length, 0);
    const complete = await billsByStation(dir);
    assert.equal(complete.size, STATIONS);
    for (const b of complete.values()) {
      assert.equal(b.units.length, UNITS);
      assert.equal(b.customer, 1);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
