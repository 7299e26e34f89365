/**
 * Owner terms and tariff settings of a zone stick (issue 24): an edit of the commission, fee,
 * customer tax, fixed charge, minimum kWh, DAC limit, currency or a tariff switch is answered
 * back and bills from the period it is meant for, as prices do: a new version from
 * `effective_from`, or a correction of the version in force.
 *
 * The world's zone: 1.00/kWh up to 150, 2.00 up to 280, 3.00 above; base 40, tax 16 %;
 * commission 10 %, fee 25 per unit, customer tax 16 %. Both units use the same energy.
 */
import assert from "node:assert/strict";
import { call } from "./_helpers.ts";
import {
  billingTest,
  type BillingWorld,
  processPeriod,
  tieredZone,
  unitBillOf,
} from "./_billing_world.ts";
import { listCustomerBills } from "../db/bills.ts";
import type { CustomerBill } from "../core/bill.ts";

/** 2026-04-10 at noon in Mexico City: March is last month. */
const NOW = Date.UTC(2026, 3, 10, 18);
/** 2026-05-03: April has ended. */
const MAY = Date.UTC(2026, 4, 3, 18);

/** Bills `period` with `kwh` on each unit's meter. */
const run = (w: BillingWorld, period: string, kwh: number) =>
  processPeriod(w, period, { "SIM-A": kwh, "SIM-B": kwh });

async function stationBill(w: BillingWorld, period: string): Promise<CustomerBill> {
  const b = (await listCustomerBills(w.t.deps.kv)).find((x) => x.billing_month === period);
  assert.ok(b, period);
  return b;
}

async function put(w: BillingWorld, json: Record<string, unknown>) {
  const res = await call(w.t, "PUT", `/api/zones/${w.zoneId}`, { token: w.admin, json });
  assert.equal(res.status, 200, await res.clone().text());
  return await res.json();
}

/** The zone as the API answers it: one zone, and its row of the list. */
async function answered(w: BillingWorld) {
  const one = await (await call(w.t, "GET", `/api/zones/${w.zoneId}`, { token: w.admin })).json();
  const { zones } = await (await call(w.t, "GET", "/api/zones", { token: w.admin })).json();
  return { one, row: zones.find((z: { id: number }) => z.id === w.zoneId) };
}

/** What a case reads of last month's and this period's bills. */
type Figures = (w: BillingWorld, period: string) => Promise<unknown>;

const station: Figures = async (w, p) => {
  const b = await stationBill(w, p);
  return [b.commission_amount, b.fee_amount, b.tax_amount, b.total_amount];
};
const unit: Figures = async (w, p) => {
  const b = await unitBillOf(w, p);
  return [b.energy_cost, b.base_tariff, b.tax_cost, b.total_cost];
};

interface Case {
  name: string;
  edit: Record<string, unknown>;
  kwh: number;
  figures: Figures;
  /** March's figures, at the old terms. */
  before: unknown;
  /** April's figures, at the new terms from April. */
  after: unknown;
}

// 100 kWh a unit: energy 100.00, base 40.00, tax 16 % of 140.00 = 22.40, total 162.40;
// the station: commission base 200.00, fee 2 × 25.00, commission 10 % = 20.00,
// tax 16 % of 70.00 = 11.20, total 81.20.
const UNIT_100 = [10000, 4000, 2240, 16240];
const STATION_100 = [2000, 5000, 1120, 8120];

/** Cases at 100 kWh a unit read by `figures`, at the old terms `before`. */
const at100 =
  (figures: Figures, before: number[]) =>
  (name: string, edit: Record<string, unknown>, after: number[]): Case => ({
    name,
    edit,
    kwh: 100,
    figures,
    before,
    after,
  });
const onStation = at100(station, STATION_100);
const onUnit = at100(unit, UNIT_100);

const CASES: Case[] = [
  // 25 % of 200.00 = 50.00; tax 16 % of 100.00 = 16.00.
  onStation("commission 10 → 25 %", { customer_commission: 25 }, [5000, 5000, 1600, 11600]),
  // 2 × 30.00 = 60.00; tax 16 % of 80.00 = 12.80.
  onStation("fee 25 → 30 per unit", { customer_fee: 30 }, [2000, 6000, 1280, 9280]),
  // 8 % of 70.00 = 5.60.
  onStation("customer tax 16 → 8 %", { customer_tax: 8 }, [2000, 5000, 560, 7560]),
  // base 40.00 + 50.00; tax 16 % of 190.00 = 30.40.
  onUnit("fixed charge 0 → 50 a month", { fixed_charge_monthly: 50 }, [10000, 9000, 3040, 22040]),
  // 200 kWh billed: 150 × 1.00 + 50 × 2.00 = 250.00; tax 16 % of 290.00 = 46.40.
  onUnit("minimum 0 → 200 kWh", { minimum_monthly_kwh: 200 }, [25000, 4000, 4640, 33640]),
  {
    name: "DAC limit 0 → 50 kWh",
    edit: { dac_limit_kwh: 50 },
    kwh: 100,
    figures: async (w, p) =>
      (await unitBillOf(w, p)).calculation_details.high_consumption ??
        null,
    before: null,
    // March and April at 100 kWh: average 100 over 2 months, above 50.
    after: { average_kwh: 100, months: 2, limit_kwh: 50, exceeded: true },
  },
  {
    name: "currency MXN → USD",
    edit: { currency: "USD" },
    kwh: 100,
    figures: async (
      w,
      p,
    ) => [(await unitBillOf(w, p)).currency, (await stationBill(w, p)).currency],
    before: ["MXN", "MXN"],
    after: ["USD", "USD"],
  },
  {
    name: "levels switched off",
    edit: { enable_levels: false },
    kwh: 200,
    figures: unit,
    // 150 × 1.00 + 50 × 2.00 = 250.00; tax 16 % of 290.00 = 46.40.
    before: [25000, 4000, 4640, 33640],
    // 200 × 1.00 = 200.00; tax 16 % of 240.00 = 38.40.
    after: [20000, 4000, 3840, 27840],
  },
  {
    name: "industrial compensation switched on at 10 %",
    edit: {
      industrial_tariff: true,
      compensation_factor_enabled: true,
      compensation_factor_percentage: 10,
    },
    kwh: 100,
    figures: async (w, p) => {
      const b = await unitBillOf(w, p);
      return [b.energy_cost, b.compensation_cost, b.tax_cost, b.total_cost];
    },
    before: [10000, 0, 2240, 16240],
    // compensation 10 % of 100.00 = 10.00; tax 16 % of 150.00 = 24.00.
    after: [10000, 1000, 2400, 17400],
  },
];

/**
 * How an edit is saved: a new version from April, or (with April's version already made with
 * the old terms) a correction of the version in force on April 10th.
 */
const SAVES = {
  "new version from April": async (w: BillingWorld, edit: Record<string, unknown>) => {
    await put(w, tieredZone({ ...edit, effective_from: "2026-04" }));
  },
  "correction of April's version": async (w: BillingWorld, edit: Record<string, unknown>) => {
    await put(w, tieredZone({ effective_from: "2026-04" }));
    await put(w, tieredZone(edit));
  },
};

for (const c of CASES) {
  for (const [how, save] of Object.entries(SAVES)) {
    billingTest(
      `zone edit, ${c.name}, as a ${how}: answered from April, March keeps the old terms`,
      {
        now: NOW,
      },
      async (w) => {
        await save(w, c.edit);
        // April's version is in force today (April 10th): the zone and its list row answer it.
        const { one, row } = await answered(w);
        assert.partialDeepStrictEqual(one, c.edit);
        assert.partialDeepStrictEqual(row, c.edit);
        await run(w, "2026-03", c.kwh);
        assert.deepEqual(await c.figures(w, "2026-03"), c.before, "March");
        w.clock.now = MAY;
        await run(w, "2026-04", c.kwh);
        assert.deepEqual(await c.figures(w, "2026-04"), c.after, "April");
      },
    );
  }
}

billingTest(
  "a commission corrected without effective_from is answered at once and bills the next run",
  { now: NOW },
  async (w) => {
    const answer = await put(w, tieredZone({ customer_commission: 25 }));
    assert.equal(answer.customer_commission, 25);
    const { one, row } = await answered(w);
    assert.equal(one.customer_commission, 25);
    assert.equal(row.customer_commission, 25);
    await run(w, "2026-03", 100);
    assert.deepEqual(await station(w, "2026-03"), [5000, 5000, 1600, 11600]);
    // The edit page shows the corrected commission.
    const page = await call(w.t, "GET", `/admin/zones/${w.zoneId}/edit`, { token: w.admin });
    assert.match(await page.text(), /name="customer_commission"[^>]*value="25"/);
  },
);

billingTest(
  "owner terms from a later month wait for it; a correction of terms alone adds no price history",
  { now: NOW },
  async (w) => {
    const later = await put(w, tieredZone({ customer_fee: 30, effective_from: "2026-06" }));
    assert.equal(later.customer_fee, 25);
    await put(w, tieredZone({ customer_commission: 12 }));
    const { one } = await answered(w);
    assert.partialDeepStrictEqual(one, { customer_fee: 25, customer_commission: 12 });
    const { versions } = await (await call(w.t, "GET", `/api/zones/${w.zoneId}/versions`, {
      token: w.admin,
    })).json();
    assert.deepEqual(
      versions.map((v: Record<string, unknown>) => [
        v.applies_from,
        v.customer_commission,
        v.customer_fee,
      ]),
      [[null, 12, 25], ["2026-06-01", 10, 30]],
    );
    // The first version and June's: the commission's correction is no price change.
    const { history } = await (await call(w.t, "GET", `/api/zones/${w.zoneId}/history`, {
      token: w.admin,
    })).json();
    assert.equal(history.length, 2);
  },
);

billingTest(
  "the zone's identity (name, billing type) applies at once, whatever month the version starts",
  { now: NOW },
  async (w) => {
    const edit = { name: "Norte 2", billing_type: "bimonthly" };
    const answer = await put(
      w,
      tieredZone({ ...edit, customer_fee: 30, effective_from: "2026-06" }),
    );
    assert.partialDeepStrictEqual(answer, { ...edit, customer_fee: 25 });
    const { one, row } = await answered(w);
    assert.partialDeepStrictEqual(one, edit);
    assert.partialDeepStrictEqual(row, edit);
    // Every version carries the zone's identity; only June's carries the new fee.
    const { versions } = await (await call(w.t, "GET", `/api/zones/${w.zoneId}/versions`, {
      token: w.admin,
    })).json();
    assert.deepEqual(
      versions.map((v: Record<string, unknown>) => [v.name, v.billing_type, v.customer_fee]),
      [["Norte 2", "bimonthly", 25], ["Norte 2", "bimonthly", 30]],
    );
  },
);
