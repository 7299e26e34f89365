/**
 * The JSON API's money contract (issue 9; spec 001 sections 3 and 7): every money amount is in
 * currency units with at most 2 decimals (integer cents stay inside), and lists answer objects,
 * never bare arrays. Every GET route the app registers under `/api/` (read from the Hono app's
 * `app.routes`, path parameters filled from the world) is walked as an admin, as the stations'
 * owner and as a tenant; an answer fails when it is a bare JSON array, or when a numeric field
 * whose name looks like money (cost, amount, tariff, fee, commission, revenue, profit, price,
 * due, paid, balance) equals one of the world's amounts in integer cents or has more than 2
 * decimals. The bill endpoints must also show the world's amounts in units. Answers that are
 * not JSON (PDF, PEM, CSV, pages) are skipped by content type. The answers of `PUT
 * /api/bills/{id}` (recalculation) and `POST /api/bills/{id}/payments` are held to the same
 * rule.
 *
 * The world: a monthly zone "Tiered" (MXN; 1.00/kWh to 150, 2.00 to 280, 3.00 above; base 40.00; tax
 * 16 %; commission 10 %, fee 25.00, customer tax 16 %) with station "Norte" (unit_1 of tenant
 * A at 200 kWh → 336.40, unit_2 of tenant B at 300.5 kWh → 593.34, station bill 141.69) billed
 * for November 2026, and a bimonthly zone (1.375/kWh flat: a rate, not an amount; base 55.55, tax 16 %, commission
 * 12.5 %, fee 33.33) with station "Sur" (unit_1 of tenant A at 123.4 kWh) billed for Sep–Oct
 * 2026; both stations owned by one customer. Unit_1 of "Norte" is swept overdue (late fee
 * 50.00, amount due 386.40).
 */
import assert from "node:assert/strict";
import { call, type TestApp, testsWith } from "./_helpers.ts";
import { addStation, assignOwner, billingWorld, meter } from "./_billing_world.ts";
import { defaultZone, type Zone } from "../core/zone.ts";
import { amountDue } from "../core/payment.ts";
import { createZone } from "../db/zones.ts";
import { listCustomerBills, listUnitBills } from "../db/bills.ts";
import { runBilling, sweepOverdue } from "../services/billing/mod.ts";
import { CERTIFICATE_FILES } from "../routes/api/certificates.ts";

const H = 3_600_000;
/** Thursday 2026-12-03 09:00 local (UTC−6): November and Sep–Oct have ended. */
const T0 = Date.parse("2026-12-03T15:00:00.000Z");
/** Friday 2026-12-18 10:00 local: the day after the bills' due date (17 Dec). */
const T1 = Date.parse("2026-12-18T16:00:00.000Z");

/** Field names that hold money. Zone prices are rates already in units and pass the check. */
const MONEY = /cost|amount|tariff|fee|commission|revenue|profit|price|due|paid|balance/i;
/** Rates (a zone's prices per kWh or kW, percentages): units already, any precision allowed. */
const RATE = /(^|_)price(_|$)|percentage|rate$/i;

type Who = "admin" | "owner" | "tenant";

interface World {
  t: TestApp;
  clock: { now: number };
  zones: { monthly: number; bimonthly: number };
  stations: { norte: number; sur: number };
  /** Tenant A's sensor on "Norte" (unit_1). */
  sensor: number;
  tenantId: number;
  /** Tenant A's overdue bill of unit_1 on "Norte". */
  bill: number;
  tokens: Record<Who, string>;
}

async function world(): Promise<World> {
  const w = await billingWorld({ now: T0, owner: true });
  const { t, clock } = w;
  assert.ok(w.owner);
  const adminToken = w.admin;
  const bimonthly = await createZone(t.deps.kv, {
    ...defaultZone("Bimestral"),
    billing_type: "bimonthly",
    price_low: 1.375, // a rate may have more than 2 decimals
    base_tariff: 55.55,
    tax_percentage: 16,
    customer_commission: 12.5,
    customer_fee: 33.33,
    customer_tax: 16,
  } as Zone, T0);
  const monthly = { id: w.zoneId };
  const norte = { id: w.stationId, sensors: w.sensors };
  const sur = await addStation(t, adminToken, {
    name: "Sur",
    serial: "ST-Sur",
    zoneId: bimonthly.id,
  }, [
    { id: "unit_1", name: "Casa 1", serial: "SIM-C", tenant: w.tenants[0] },
  ]);
  await assignOwner(t, adminToken, w.owner.id, [sur.id]);

  await meter(t, "SIM-A", "2026-11", 200);
  await meter(t, "SIM-B", "2026-11", 300.5);
  await meter(t, "SIM-C", "2026-09-10", 123.4);
  for (const [zone, period] of [[monthly.id, "2026-11"], [bimonthly.id, "2026-09-10"]] as const) {
    const res = await runBilling(t.deps, zone, period);
    assert.equal(res.finalized, true);
    assert.deepEqual(res.failures, []);
  }
  // unit_2 of Norte and Sur's bill are paid; unit_1 of Norte becomes overdue.
  clock.now = T0 + 24 * H;
  for (const b of await listUnitBills(t.deps.kv)) {
    if (b.station_id === norte.id && b.unit_id === "unit_1") continue;
    const paid = await call(t, "POST", `/api/bills/${b.id}/payments`, {
      token: adminToken,
      json: { method: "cash", payment_date: "2026-12-04" },
    });
    assert.equal(paid.status, 200, await paid.clone().text());
    await paid.body?.cancel();
  }
  clock.now = T1;
  assert.equal((await sweepOverdue(t.deps)).overdue, 1);
  return {
    t,
    clock,
    zones: { monthly: monthly.id, bimonthly: bimonthly.id },
    stations: { norte: norte.id, sur: sur.id },
    sensor: norte.sensors[0],
    tenantId: w.tenants[0],
    bill:
      (await listUnitBills(t.deps.kv)).find((b) =>
        b.station_id === norte.id && b.unit_id === "unit_1"
      )!.id,
    tokens: { admin: adminToken, owner: w.owner.token, tenant: w.tenantTokens[0] },
  };
}

const test = testsWith(world, (w) => w.t.close());

/** Calls `visit` with every number under a money-named field of `v`, with its path and key. */
function eachMoney(
  v: unknown,
  visit: (n: number, path: string, key: string) => void,
  path = "$",
  key = "",
) {
  if (Array.isArray(v)) v.forEach((x, i) => eachMoney(x, visit, `${path}[${i}]`, key));
  else if (v && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) eachMoney(x, visit, `${path}.${k}`, k);
  } else if (typeof v === "number" && MONEY.test(key)) visit(v, path, key);
}

/**
 * Every amount of the world's stored bills in integer cents, tiers and amounts due included
 * (what must never reach the API); rates and prices are not amounts.
 */
async function knownCents(w: World): Promise<Set<number>> {
  const out = new Set<number>();
  const add = (v: number, _path: string, key: string) => {
    if (!RATE.test(key) && Number.isInteger(v) && v >= 100) out.add(v);
  };
  const units = await listUnitBills(w.t.deps.kv);
  eachMoney(units, add);
  for (const b of units) add(amountDue(b), "", "amount_due");
  eachMoney(await listCustomerBills(w.t.deps.kv), add);
  return out;
}

/** What is wrong with the money of a JSON answer, as `path: problem` lines. */
function moneyProblems(body: unknown, cents: Set<number>, label: string): string[] {
  const out: string[] = [];
  if (Array.isArray(body)) out.push(`${label}: answers a bare JSON array`);
  eachMoney(body, (v, path, key) => {
    if (!RATE.test(key) && Math.abs(v * 100 - Math.round(v * 100)) > 1e-6) {
      out.push(`${label} ${path} = ${v}: more than 2 decimals`);
    }
    if (cents.has(v)) {
      out.push(`${label} ${path} = ${v}: an amount in cents (${v / 100} in units)`);
    }
  });
  return out;
}

/** All numbers under fields named `key` anywhere in a JSON answer. */
function valuesOf(body: unknown, key: string): number[] {
  const out: number[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        if (k === key && typeof x === "number") out.push(x);
        walk(x);
      }
    }
  };
  walk(body);
  return out;
}

/** The concrete path of a route, its parameters filled from the world; null when unknown. */
function fill(route: string, w: World, who: Who): string {
  const file = Object.keys(CERTIFICATE_FILES)[0];
  return route.replace(/:(\w+)/g, (_, name: string) => {
    if (name === "sensorId") return String(w.sensor);
    if (name === "file") return file;
    if (name !== "id") throw new Error(`${route}: no value for :${name}; teach fill() about it`);
    if (route.startsWith("/api/users/")) return String(w.tenantId);
    if (route.startsWith("/api/zones/")) return String(w.zones.monthly);
    if (route.startsWith("/api/measurements/") || route.startsWith("/api/analytics/")) {
      return String(w.sensor);
    }
    if (route.startsWith("/api/devices/")) return String(w.stations.norte);
    if (route.startsWith("/api/tenant-payments/")) return String(w.bill);
    throw new Error(`${route}: no value for :id (as ${who}); teach fill() about it`);
  });
}

/** GET paths under /api/ to ask: every registered route, plus the bill lists with queries. */
function paths(w: World, who: Who): string[] {
  const routes = [
    ...new Set(
      w.t.app.routes
        .filter((r) => r.method === "GET" && r.path.startsWith("/api/"))
        .map((r) => r.path),
    ),
  ];
  const extra = [
    `/api/bills?station_id=${w.stations.norte}&billing_month=2026-11`,
    `/api/bills?station_id=${w.stations.norte}&billing_month=2026-11&unit_id=unit_1`,
    `/api/bimester-bills?station_id=${w.stations.sur}&billing_period=2026-09-10`,
    `/api/customer-bills?station_id=${w.stations.norte}&billing_month=2026-11`,
    `/api/bimester-customer-bills?station_id=${w.stations.sur}&billing_period=2026-09-10`,
    `/api/zones/${w.zones.bimonthly}`,
    `/api/zones/${w.zones.bimonthly}/stations`,
    `/api/devices/${w.stations.sur}`,
    `/api/devices?type=station`,
    `/api/devices?type=sensor`,
  ];
  return [...routes.map((r) => fill(r, w, who)), ...extra];
}

/** Asks `path` as `who`; the JSON body, or null for an answer that is not JSON. */
async function getJson(w: World, who: Who, path: string) {
  const res = await call(w.t, "GET", path, { token: w.tokens[who] });
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("json")) {
    await res.body?.cancel();
    return { status: res.status, body: null as unknown, json: false };
  }
  return { status: res.status, body: await res.json() as unknown, json: true };
}

test("every GET route under /api/ answers objects with money in units (≤ 2 decimals, never the cents) to admin, owner and tenant", async (w) => {
  const cents = await knownCents(w);
  for (const v of [33640, 59334, 14169, 38640, 5000]) assert.ok(cents.has(v), `world has ${v}`);
  // The check itself catches what it is for, and lets rates through.
  assert.equal(moneyProblems([], cents, "x").length, 1);
  assert.equal(moneyProblems({ bills: [{ total_cost: 33640 }] }, cents, "x").length, 1);
  assert.equal(moneyProblems({ a: { amount_due: 336.405 } }, cents, "x").length, 1);
  assert.equal(moneyProblems({ params: { amount: 38640 } }, cents, "x").length, 1);
  assert.deepEqual(
    moneyProblems(
      { zone: { price_low: 1.375, tax_percentage: 16.125 }, total_cost: 336.4 },
      cents,
      "x",
    ),
    [],
  );
  const registered = new Set(w.t.app.routes.map((r) => `${r.method} ${r.path}`));
  for (
    const r of [
      "/api/bills",
      "/api/bimester-bills",
      "/api/customer-bills",
      "/api/bimester-customer-bills",
    ]
  ) assert.ok(registered.has(`GET ${r}`), `GET ${r} is registered`);

  const problems: string[] = [];
  let jsonAnswers = 0;
  for (const who of ["admin", "owner", "tenant"] as const) {
    for (const path of paths(w, who)) {
      const { status, body, json } = await getJson(w, who, path);
      const label = `GET ${path} as ${who} (${status})`;
      if (status >= 500) problems.push(`${label}: server error`);
      if (!json) continue;
      jsonAnswers++;
      problems.push(...moneyProblems(body, cents, label));
    }
  }
  assert.ok(jsonAnswers > 60, `walked ${jsonAnswers} JSON answers`);
  assert.deepEqual(problems, []);
});

test("the bill endpoints show the world's amounts in currency units: totals, late fee and amount due, tiers, station bills", async (w) => {
  const unit = (await listUnitBills(w.t.deps.kv)).find((b) => b.station_id === w.stations.sur)!;
  const cust = (await listCustomerBills(w.t.deps.kv)).find((c) => c.station_id === w.stations.sur)!;
  const norte = (await listCustomerBills(w.t.deps.kv)).find((c) =>
    c.station_id === w.stations.norte
  )!;
  assert.equal(norte.total_amount, 14169);

  // Admin: monthly unit bills of Norte.
  const { body: bills } = await getJson(w, "admin", "/api/bills");
  assert.ok(bills && !Array.isArray(bills) && Array.isArray((bills as { bills: unknown }).bills));
  const list = (bills as { bills: Record<string, unknown>[] }).bills;
  const a = list.find((b) => b.unit_id === "unit_1" && b.station_id === w.stations.norte)!;
  const b = list.find((b) => b.unit_id === "unit_2")!;
  assert.partialDeepStrictEqual(a, {
    total_cost: 336.4,
    energy_cost: 250,
    base_tariff: 40,
    tax_cost: 46.4,
    compensation_cost: 0,
    late_fee: 50,
    amount_due: 386.4,
    payment_status: "overdue",
  });
  // 150 × 1.00 + 50 × 2.00: the tiers cost 150.00 and 100.00.
  const tiers = (a.calculation_details as { tiers: { tier_cost: number }[] }).tiers;
  assert.deepEqual(tiers.map((x) => x.tier_cost).filter((x) => x > 0), [150, 100]);
  assert.partialDeepStrictEqual(b, {
    total_cost: 593.34,
    amount_due: 593.34,
    payment_status: "paid",
  });

  // Admin: bimonthly unit bill of Sur, in units from the stored cents.
  const { body: bim } = await getJson(w, "admin", "/api/bimester-bills");
  const sur = (bim as { bills: Record<string, unknown>[] }).bills;
  assert.equal(sur.length, 1);
  assert.equal(sur[0].total_cost, unit.total_cost / 100);
  assert.equal(sur[0].energy_cost, unit.energy_cost / 100);
  assert.equal(sur[0].base_tariff, 55.55);
  assert.equal(sur[0].tax_cost, unit.tax_cost / 100);

  // Station bills.
  const { body: cb } = await getJson(w, "admin", "/api/customer-bills");
  const c = (cb as { bills: Record<string, unknown>[] }).bills;
  assert.equal(c.length, 1);
  assert.partialDeepStrictEqual(c[0], {
    commission_amount: 72.15,
    fee_amount: 50,
    tax_amount: 19.54,
    total_amount: 141.69,
    calculation_details: { commission_base: 721.5, fee_per_unit: 25, commission_rate: 10 },
  });
  const { body: bcb } = await getJson(w, "admin", "/api/bimester-customer-bills");
  const bc = (bcb as { bills: Record<string, unknown>[] }).bills;
  assert.equal(bc.length, 1);
  assert.equal(bc[0].total_amount, cust.total_amount / 100);
  assert.equal(bc[0].fee_amount, 33.33);
  assert.equal((bc[0].calculation_details as Record<string, number>).fee_per_unit, 33.33);

  // The owner sees the same amounts; the tenant only its own bills.
  const { body: own } = await getJson(w, "owner", "/api/customer-bills");
  assert.deepEqual(valuesOf(own, "total_amount"), [141.69]);
  const { body: mine } = await getJson(w, "tenant", "/api/bills");
  assert.deepEqual(valuesOf(mine, "total_cost"), [336.4]);
  assert.deepEqual(valuesOf(mine, "amount_due"), [386.4]);
  const { body: mineBim } = await getJson(w, "tenant", "/api/bimester-bills");
  assert.deepEqual(valuesOf(mineBim, "total_cost"), [unit.total_cost / 100]);
});

test("the answers of a recalculation (PUT /api/bills/{id}) and of a recorded payment have money in units", async (w) => {
  const bills = await listUnitBills(w.t.deps.kv);
  const a = bills.find((b) => b.station_id === w.stations.norte && b.unit_id === "unit_1")!;
  // 250 kWh: 150 × 1 + 100 × 2 = 350.00; base 40.00; tax 16 % of 390.00 = 62.40; 452.40.
  const res = await call(w.t, "PUT", `/api/bills/${a.id}`, {
    token: w.tokens.admin,
    json: {
      override_reason: "meter replaced",
      recalculation_method: "manual_input",
      energy_consumption: "250",
    },
  });
  assert.equal(res.status, 200, await res.clone().text());
  const body = await res.json();
  const cents = new Set([...await knownCents(w), 45240, 35000, 6240]);
  assert.deepEqual(moneyProblems(body, cents, "PUT answer"), []);
  assert.equal(body.total_cost, 452.4);
  assert.equal(body.energy_cost, 350);
  assert.equal(body.tax_cost, 62.4);
  assert.equal(body.late_fee, 50);
  assert.equal(body.amount_due, 502.4);

  const paid = await call(w.t, "POST", `/api/bills/${a.id}/payments`, {
    token: w.tokens.admin,
    json: { method: "transfer", payment_date: "2026-12-18", reference: "T-1" },
  });
  assert.equal(paid.status, 200, await paid.clone().text());
  const pbody = await paid.json();
  assert.deepEqual(moneyProblems(pbody, cents, "payment answer"), []);
  assert.equal(pbody.payment_status, "paid");
  assert.equal(pbody.amount_due, 502.4);
  // The late fee kept in the history is in units too.
  assert.ok(valuesOf(pbody.payment_history, "late_fee").every((v: number) => v === 50));
  assert.equal(valuesOf(pbody.payment_history, "late_fee").length, 1);
});
