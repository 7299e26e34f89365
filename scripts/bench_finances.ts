/**
 * `deno run -A scripts/bench_finances.ts` (part of `deno task bench`): the server time of the
 * admin's finance overview (`GET /api/finances/overview?currency=MXN`, issue 14) and of the
 * owner's billing overview with 50,000 unit bills in a Deno KV file.
 *
 * Setup (not timed): 1,389 stations of the demo's shape (3 units, one customer each) in the
 * demo's CFE zone, each billed for the 12 months of 2025 (50,004 finalized unit bills and
 * 16,668 station bills, written through db/bills.ts as a billing run writes them); one bill in
 * ten paid. The requests go to the real app in this process (`app.request`, no network).
 *
 * Measured, `--runs` times each (default 100) after a warm-up, p50 and p95:
 * 1. the overview when no bill changed since the last request (the usual case);
 * 2. the overview right after a bill is paid (every run pays one: the bills are read again);
 * 3. the bimonthly trend and the zones, unchanged bills;
 * 4. the owner's overview of a year (one station's bills, read from the store each time).
 *
 * Target: the overview under 100 ms at p95 (1). Prints lines and then the figures as JSON
 * (also written to `.build/bench_finances.json`). Options: `--runs N`, `--stations N`.
 */
import { parseArgs } from "node:util";
import { percentile, timings } from "./_bench_stats.ts";
import { createApp } from "../routes/mod.ts";
import type { AppDeps } from "../routes/_deps.ts";
import { loadConfig } from "../services/platform/config.ts";
import { loadI18n } from "../services/platform/i18n.ts";
import { loadAssets } from "../components/assets.ts";
import { memoryLogger } from "../services/platform/log.ts";
import { issueToken } from "../services/platform/tokens.ts";
import { DEFAULT_THROTTLE } from "../db/throttle.ts";
import { openSqliteStore } from "../db/telemetry/sqlite.ts";
import { createUser, type StoredUser } from "../db/users.ts";
import { createZone } from "../db/zones.ts";
import { benchUnits, createBenchStation } from "./_bench_devices.ts";
import {
  getUnitBillEntry,
  idBlocks,
  type StationWrite,
  updateUnitBill,
  writeStationsBills,
} from "../db/bills.ts";
import { demoZoneBody } from "../services/demo_devices.ts";
import { computeUnitBill } from "../core/tariff.ts";
import { computeCustomerBill } from "../core/customer_bill.ts";
import { buildCustomerBill, buildUnitBill } from "../core/bill.ts";
import { changePayment } from "../core/payment.ts";
import { openCertificateAuthority } from "../services/platform/pki.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string", default: "100" },
    stations: { type: "string", default: "1389" },
  },
});
const RUNS = Number(args.values.runs);
const STATIONS = Number(args.values.stations);
const UNITS = 3;
const MONTHS = Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, "0")}`);
const NOW = Date.UTC(2026, 1, 10, 18);
const print = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));

async function measure(run: (i: number) => Promise<unknown>, warm = 3) {
  let k = -warm;
  const times = await timings(() => run(k++), RUNS, warm);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { p50: r(percentile(times, 0.5)), p95: r(percentile(times, 0.95)) };
}

const dir = await Deno.makeTempDir({ prefix: "bench_finances_" });
const kv = await Deno.openKv(`${dir}/kv.sqlite3`);
const telemetry = openSqliteStore(":memory:");
const deps = {
  kv,
  config: loadConfig({ DATA_DIR: dir }),
  i18n: await loadI18n(),
  assets: await loadAssets(),
  secret: "bench-secret-bench-secret-bench-secret-01",
  now: () => NOW,
  log: memoryLogger(),
  throttle: DEFAULT_THROTTLE,
  telemetry,
  pki: await openCertificateAuthority(null),
} as AppDeps;
const app = createApp(deps);

async function user(role: "admin" | "customer" | "user", n: number): Promise<StoredUser> {
  return await createUser(kv, {
    email: `${role}${n}@bench.mx`,
    full_name: `Bench ${role} ${n}`,
    role,
    is_active: true,
    language: "es",
    password_hash: "x",
  }, NOW);
}

print(`Setup: ${STATIONS} stations × ${UNITS} units × ${MONTHS.length} months of bills…`);
const t0 = performance.now();
const admin = await user("admin", 0);
const zone = await createZone(kv, demoZoneBody(), NOW);
const owners: StoredUser[] = [];
const ids = idBlocks(kv);
let paidIds: number[] = [];
const writes: { id: number; units: string[]; customer: number }[] = [];
for (let s = 0; s < STATIONS; s++) {
  const owner = await user("customer", s);
  owners.push(owner);
  const units = benchUnits(UNITS);
  const station = await createBenchStation(kv, {
    name: `Estación ${s}`,
    serial: `BENCH-${s}`,
    stationId: `bench_${s}`,
    zoneId: zone.id,
    customerId: owner.id,
    units,
    at: NOW,
  });
  writes.push({ id: station.id, units: units.map((u) => u.id), customer: owner.id });
}
for (const period of MONTHS) {
  for (let i = 0; i < writes.length; i += 15) {
    const group: StationWrite[] = writes.slice(i, i + 15).map((st) => {
      const computed = st.units.map((_, u) =>
        computeUnitBill(zone, 120 + ((st.id * 7 + u * 31) % 380))
      );
      return {
        stationId: st.id,
        units: st.units.map((unit_id, u) => ({
          draft: buildUnitBill({
            unit_id,
            station_id: st.id,
            zone_id: zone.id,
            period: { text: period, kind: "monthly" },
            tenant_id: null,
            sensor_serial: null,
            zone_snapshot: zone,
            author: "bench",
            estimation: null,
            finalize: { at: new Date(NOW).toISOString(), on: { year: 2026, month: 2, day: 10 } },
          }, computed[u]),
          prev: { key: [], value: null, versionstamp: null },
        })),
        customer: {
          draft: buildCustomerBill({
            station_id: st.id,
            period: { text: period, kind: "monthly" },
            customer_id: st.customer,
            zone_id: zone.id,
            finalized: true,
          }, computeCustomerBill(zone, computed)),
          prev: { key: [], value: null, versionstamp: null },
        },
      };
    });
    const done = await writeStationsBills(kv, period, group, NOW, ids);
    if (!done) throw new Error("a bench write failed");
    for (const w of done) paidIds.push(...w.created.map((b) => b.id));
  }
}
paidIds = paidIds.filter((_, i) => i % 10 === 0);
const toPay = paidIds.splice(0, RUNS + 10);

/** Marks one bill paid, as a recorded payment does. */
async function pay(id: number) {
  const entry = (await getUnitBillEntry(kv, id))!;
  const next = changePayment(entry.value, "paid", {
    at: new Date(NOW).toISOString(),
    cause: "recorded_by_admin",
    by: null,
  });
  if (!(await updateUnitBill(kv, entry, next))) throw new Error("pay");
}
for (const id of paidIds) await pay(id);
const setupMs = Math.round(performance.now() - t0);
print(`  ${writes.length * UNITS * MONTHS.length} unit bills in ${Math.round(setupMs / 1000)} s`);

const adminToken = await issueToken(deps.secret, admin, NOW, 3600);
const ownerToken = await issueToken(deps.secret, owners[0], NOW, 3600);
async function get(path: string, token: string) {
  const res = await app.request(`http://localhost${path}`, {
    headers: { authorization: `Bearer ${token}`, host: "localhost" },
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return await res.json();
}

const check = await get("/api/finances/overview?currency=MXN", adminToken);
print(
  `  overview: ${check.overview.total_bills} bills, paid ${check.unit_billing.combined.paid_bills}`,
);

const overview = await measure(() => get("/api/finances/overview?currency=MXN", adminToken));
const afterPayment = await measure(async (i) => {
  await pay(toPay[i + 3]);
  await get("/api/finances/overview?currency=MXN", adminToken);
});
const trend = await measure(async () => {
  await get("/api/finances/bimonthly?currency=MXN", adminToken);
  await get("/api/finances/zones?currency=MXN", adminToken);
});
const owner = await measure(() =>
  get("/api/customer-billing-overview/overview?year=2025", ownerToken)
);

const figures = {
  unit_bills: writes.length * UNITS * MONTHS.length,
  customer_bills: writes.length * MONTHS.length,
  runs: RUNS,
  overview_ms: overview,
  overview_after_payment_ms: afterPayment,
  bimonthly_and_zones_ms: trend,
  owner_overview_ms: owner,
  target_overview_p95_ms: 100,
};
print(
  `Overview, bills unchanged:      p50 ${overview.p50} ms, p95 ${overview.p95} ms (target < 100)`,
);
print(`Overview after a payment:       p50 ${afterPayment.p50} ms, p95 ${afterPayment.p95} ms`);
print(`Bimonthly trend + zones:        p50 ${trend.p50} ms, p95 ${trend.p95} ms`);
print(`Owner's overview (one station): p50 ${owner.p50} ms, p95 ${owner.p95} ms`);
print(JSON.stringify(figures));
await Deno.mkdir(new URL("../.build/", import.meta.url), { recursive: true });
await Deno.writeTextFile(
  new URL("../.build/bench_finances.json", import.meta.url),
  JSON.stringify(figures, null, 2),
);
kv.close();
telemetry.close();
await Deno.remove(dir, { recursive: true });
