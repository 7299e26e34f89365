/**
 * Bills that follow tenancies (issue 24): a unit that changed hands in a period gets one bill
 * per tenancy (and one for a vacant stretch), each with its own energy from the readings and
 * the fixed amounts and block limits prorated by its days. Figures are worked by hand in the
 * comments, on the world's tiered zone (1.00/kWh up to 150, 2.00 up to 280, 3.00 above; base
 * 40.00; tax 16 %; commission 10 %, fee 25.00 per unit, customer tax 16 %).
 */
import assert from "node:assert/strict";
import { account, call, testsWith } from "./_helpers.ts";
import { type BillingWorld, billingWorld, payBill } from "./_billing_world.ts";
import { dayStart } from "../core/local_time.ts";
import { listCustomerBills, listUnitBills, type StoredUnitBill } from "../db/bills.ts";
import { runBilling, sweepOverdue } from "../services/billing/mod.ts";
import { listNotifications } from "../db/notifications.ts";

const OFFSET = -360;
const at = (date: string) => dayStart(date, OFFSET);
/** {@link at} as the API and the bills write it (ISO 8601, UTC). */
const atText = (date: string) => new Date(at(date)).toISOString();

/** A world whose clock stands at `now`, with tenant C (no unit yet) besides A and B. */
async function world(now: string): Promise<BillingWorld & { c: { id: number; token: string } }> {
  const w = await billingWorld({ now: Date.parse(now) });
  const c = await account(w.t, "user", { full_name: "Carla Nueva" });
  return { ...w, c: { id: c.user.id, token: c.token } };
}

type World = Awaited<ReturnType<typeof world>>;

/** `Deno.test` in a {@link world} whose clock stands at `now`, closed however the test ends. */
function test(name: string, now: string, fn: (w: World) => Promise<void>): void {
  testsWith(() => world(now), (w) => w.t.close())(name, fn);
}

/** Counter readings of a meter: [date-time in local time, kWh]. */
async function readings(w: BillingWorld, serial: string, points: [string, number][]) {
  w.t.deps.telemetry.write(points.map(([local, kwh]) => ({
    serial,
    ts: Date.parse(`${local}-06:00`),
    values: { total_energy_kwh: kwh },
  })));
  await w.t.deps.telemetry.flush();
}

async function post(w: BillingWorld, path: string, json: unknown) {
  const res = await call(w.t, "POST", path, { token: w.admin, json });
  const body = await res.json();
  return { status: res.status, body };
}

const unitBills = async (w: BillingWorld, unit: string) =>
  (await listUnitBills(w.t.deps.kv, w.stationId)).filter((b) => b.unit_id === unit);

const figures = (b: StoredUnitBill) => ({
  tenant_id: b.tenant_id,
  energy_consumption: b.energy_consumption,
  energy_cost: b.energy_cost,
  base_tariff: b.base_tariff,
  tax_cost: b.tax_cost,
  total_cost: b.total_cost,
  tenancy_from: b.tenancy_from,
  tenancy_to: b.tenancy_to,
});

test(
  "a move on the 16th of a 30-day month: one bill for each tenant, base and blocks halved",
  "2026-10-05T18:00:00Z",
  async (w) => {
    // Meter A: 1000 kWh at the start of September, 1100 at the handover, 1150 at the end.
    await readings(w, "SIM-A", [
      ["2026-08-31T23:00:00", 1000],
      ["2026-09-01T01:00:00", 1000],
      ["2026-09-15T23:00:00", 1100],
      ["2026-09-30T23:00:00", 1150],
    ]);
    await readings(w, "SIM-B", [["2026-09-01T01:00:00", 500], ["2026-09-30T23:00:00", 500]]);
    // The account of C was made after C moved in on the 16th.
    const moved = await post(w, "/api/devices/assign-tenant", {
      tenant_id: w.c.id,
      sensor_ids: [w.sensors[0]],
      effective_from: "2026-09-16",
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const history = await call(w.t, "GET", `/api/devices/${w.sensors[0]}/tenancies`, {
      token: w.admin,
    });
    assert.deepEqual(
      (await history.json()).tenancies.map((t: Record<string, unknown>) => [
        t.tenant_id,
        t.from,
        t.to,
      ]),
      [
        [w.tenants[0], null, atText("2026-09-16")],
        [w.c.id, atText("2026-09-16"), null],
      ],
    );

    const run = await runBilling(w.t.deps, w.zoneId, "2026-09");
    assert.equal(run.unit_bills.created, 3, "two bills for unit_1, one for unit_2");
    const [a, c] = await unitBills(w, "unit_1");
    // A, 15 of 30 days, 100 kWh: blocks 75 and 140 kWh; 75 × 1.00 + 25 × 2.00 = 125.00;
    // base 40.00 × 15/30 = 20.00; tax 16 % of 145.00 = 23.20; total 168.20.
    assert.deepEqual(figures(a), {
      tenant_id: w.tenants[0],
      energy_consumption: 100,
      energy_cost: 12500,
      base_tariff: 2000,
      tax_cost: 2320,
      total_cost: 16820,
      tenancy_from: atText("2026-09-01"),
      tenancy_to: atText("2026-09-16"),
    });
    // C, the other 15 days, 50 kWh: 50 × 1.00 = 50.00; base 20.00; tax 11.20; total 81.20.
    assert.deepEqual(figures(c), {
      tenant_id: w.c.id,
      energy_consumption: 50,
      energy_cost: 5000,
      base_tariff: 2000,
      tax_cost: 1120,
      total_cost: 8120,
      tenancy_from: atText("2026-09-16"),
      tenancy_to: atText("2026-10-01"),
    });
    // The station bill sums every bill: commission 10 % of 175.00 (+ unit_2's 0) = 17.50;
    // the fee counts units, not bills: 2 × 25.00; customer tax 16 % of 67.50 = 10.80.
    const [station] = await listCustomerBills(w.t.deps.kv, w.stationId);
    assert.deepEqual(
      [station.commission_amount, station.fee_amount, station.tax_amount, station.total_amount],
      [1750, 5000, 1080, 7830],
    );
    // Each tenant sees their own bill only.
    for (const [token, mine] of [[w.tenantTokens[0], a], [w.c.token, c]] as const) {
      const res = await call(w.t, "GET", "/api/bills", { token });
      assert.deepEqual((await res.json()).bills.map((b: { id: number }) => b.id), [mine.id]);
    }
    // A run again updates the same bills.
    const again = await runBilling(w.t.deps, w.zoneId, "2026-09");
    assert.equal(again.unit_bills.skipped, 3);
    assert.equal((await unitBills(w, "unit_1")).length, 2);
    // Recalculated by hand at 90 kWh, A's bill stays a bill of A's 15 days: 75 × 1.00 +
    // 15 × 2.00 = 105.00; base 20.00; tax 20.00; total 145.00.
    const recalc = await call(w.t, "PUT", `/api/bills/${a.id}`, {
      token: w.admin,
      json: {
        recalculation_method: "manual_input",
        energy_consumption: "90",
        override_reason: "meter read on site",
      },
    });
    assert.equal(recalc.status, 200, await recalc.clone().text());
    await recalc.body?.cancel();
    const [fixed] = await unitBills(w, "unit_1");
    assert.deepEqual(
      [fixed.energy_cost, fixed.base_tariff, fixed.tax_cost, fixed.total_cost, fixed.tenancy_to],
      [10500, 2000, 2000, 14500, a.tenancy_to],
    );
  },
);

test(
  "a move on the 16th of a 31-day month: 15 and 16 days, base tariff parts add up to 40.00",
  "2026-11-03T18:00:00Z",
  async (w) => {
    await readings(w, "SIM-A", [
      ["2026-10-01T01:00:00", 0],
      ["2026-10-15T23:00:00", 10],
      ["2026-10-31T23:00:00", 30],
    ]);
    const moved = await post(w, "/api/devices/assign-tenant", {
      tenant_id: w.c.id,
      sensor_ids: [w.sensors[0]],
      effective_from: "2026-10-16T00:00:00-06:00",
    });
    assert.equal(moved.status, 200);
    await runBilling(w.t.deps, w.zoneId, "2026-10");
    const [a, c] = await unitBills(w, "unit_1");
    // 40.00 × 15/31 = 19.35; the rest, 20.65. A: 10 kWh, C: 20 kWh.
    assert.deepEqual([a.base_tariff, c.base_tariff], [1935, 2065]);
    assert.deepEqual([a.energy_consumption, c.energy_consumption], [10, 20]);
    // A: 10.00 + 19.35 = 29.35, tax 4.70, 34.05. C: 20.00 + 20.65 = 40.65, tax 6.50, 47.15.
    assert.deepEqual([a.total_cost, c.total_cost], [3405, 4715]);
  },
);

test(
  "a move-out with a reading is billed at once and paid; the month's run bills the newcomer and the vacant days",
  "2026-10-12T18:00:00Z",
  async (w) => {
    await readings(w, "SIM-A", [
      ["2026-09-30T23:00:00", 2000],
      ["2026-10-01T01:00:00", 2000],
      ["2026-10-09T23:00:00", 2075],
      ["2026-10-12T10:00:00", 2080],
    ]);
    // A leaves on the 10th; the meter read 2078 kWh at the handover.
    const out = await post(w, `/api/devices/remove-tenant/${w.sensors[0]}`, {
      effective_from: "2026-10-10",
      reading_kwh: 2078,
      final_bill: true,
    });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    const [final] = await unitBills(w, "unit_1");
    // 9 of 31 days: blocks 150 × 9/31 = 43.548 and 280 × 9/31 = 81.290 kWh; 78 kWh:
    // 43.548 × 1.00 = 43.55 + 34.452 × 2.00 = 68.90 → 112.45; base 40.00 × 9/31 = 11.61;
    // tax 16 % of 124.06 = 19.85; total 143.91.
    assert.deepEqual(
      [final.tenant_id, final.energy_consumption, final.base_tariff, final.total_cost],
      [w.tenants[0], 78, 1161, 14391],
    );
    assert.equal(final.is_finalized, true, "the final bill is finalized at once");
    assert.equal(final.payment_status, "pending");
    assert.ok(final.payment_due_date);
    // A sees it and it is payable (paid here by the admin's record of a cash payment).
    const mine = await call(w.t, "GET", "/api/bills", { token: w.tenantTokens[0] });
    assert.deepEqual((await mine.json()).bills.map((b: { id: number }) => b.id), [final.id]);
    await payBill(w, final.id);

    // C moves in on the 20th: the 10 days between are vacant.
    w.clock.now = Date.parse("2026-10-20T18:00:00Z");
    const moved = await post(w, "/api/devices/assign-tenant", {
      tenant_id: w.c.id,
      sensor_ids: [w.sensors[0]],
      effective_from: "2026-10-20",
      reading_kwh: 2090,
    });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    await readings(w, "SIM-A", [["2026-10-31T23:00:00", 2140]]);
    w.clock.now = Date.parse("2026-11-03T18:00:00Z");
    const run = await runBilling(w.t.deps, w.zoneId, "2026-10");
    assert.equal(run.unit_bills.skipped, 1, "the final bill is left alone");
    const [a, vacant, c] = await unitBills(w, "unit_1");
    assert.equal(a.id, final.id);
    assert.equal(a.payment_status, "paid");
    // The base tariff by cumulative rounding: 40.00 × 9/31 = 11.61 (A), 40.00 × 19/31 = 24.52
    // less 11.61 = 12.91 (vacant), 40.00 less 24.52 = 15.48 (C).
    // Vacant, 10 days (2078 → 2090 kWh): 12.00 + 12.91 = 24.91; tax 3.99; 28.90.
    assert.deepEqual(
      [vacant.tenant_id, vacant.energy_consumption, vacant.base_tariff, vacant.total_cost],
      [null, 12, 1291, 2890],
    );
    // C, 12 days (2090 → 2140 kWh, under the block of 58.065): 50.00 + 15.48 = 65.48; tax
    // 10.48; 75.96.
    assert.deepEqual(
      [c.tenant_id, c.energy_consumption, c.base_tariff, c.total_cost],
      [w.c.id, 50, 1548, 7596],
    );
    assert.equal(a.base_tariff + vacant.base_tariff + c.base_tariff, 4000);
    // The admin's unit report lists the period's three bills.
    const report = await call(
      w.t,
      "GET",
      `/admin/report/station/${w.stationId}/unit/unit_1?year=2026&period=2026-10`,
      { token: w.admin },
    );
    const html = await report.text();
    assert.equal(report.status, 200);
    const parts = html.slice(html.indexOf('data-testid="period-parts"'));
    for (
      const text of [
        "2026-10-01 – 2026-10-09",
        "No tenant",
        "Carla Nueva",
        "2026-10-20 – 2026-10-31",
      ]
    ) {
      assert.ok(parts.includes(text), `the report's parts show ${text}`);
    }
    // C sees only their part; A still sees (and has paid) theirs after moving out.
    const cs = await call(w.t, "GET", "/api/bills", { token: w.c.token });
    assert.deepEqual((await cs.json()).bills.map((b: { id: number }) => b.id), [c.id]);
    const as = await call(w.t, "GET", `/api/tenant-payments/${a.id}`, { token: w.tenantTokens[0] });
    assert.equal(as.status, 200);
    await as.body?.cancel();
    const other = await call(w.t, "GET", `/api/tenant-payments/${c.id}`, {
      token: w.tenantTokens[0],
    });
    assert.ok([403, 404].includes(other.status), `A must not read C's bill (${other.status})`);
    await other.body?.cancel();
  },
);

test(
  "dates that contradict a finalized bill, the current tenancy or the calendar are refused and change nothing",
  "2026-10-05T18:00:00Z",
  async (w) => {
    await readings(w, "SIM-A", [["2026-09-01T01:00:00", 0], ["2026-09-30T23:00:00", 10]]);
    await runBilling(w.t.deps, w.zoneId, "2026-09");
    const [bill] = await unitBills(w, "unit_1");
    const cases: [unknown, number, string][] = [
      [{ effective_from: "2026-09-20" }, 409, `#${bill.id}`],
      [{ effective_from: "2026-02-30" }, 400, "YYYY-MM-DD"],
      [{ effective_from: "2027-01-01" }, 400, "future"],
      [{ effective_from: "2026-10-02", reading_kwh: -1 }, 400, "kWh"],
    ];
    for (const [extra, status, text] of cases) {
      const res = await call(w.t, "POST", "/api/devices/assign-tenant", {
        token: w.admin,
        json: { tenant_id: w.c.id, sensor_ids: [w.sensors[0]], ...extra as object },
      });
      const body = await res.json();
      assert.equal(res.status, status, JSON.stringify(extra));
      assert.ok(JSON.stringify(body).includes(text), `${JSON.stringify(body)} names ${text}`);
    }
    // A later start for the current tenant is refused; nothing changed.
    const later = await post(w, "/api/devices/assign-tenant", {
      tenant_id: w.tenants[0],
      sensor_ids: [w.sensors[0]],
      effective_from: "2026-10-03",
    });
    assert.equal(later.status, 400);
    const history = await call(w.t, "GET", `/api/devices/${w.sensors[0]}/tenancies`, {
      token: w.admin,
    });
    assert.deepEqual(
      (await history.json()).tenancies.map((t: { tenant_id: number }) => t.tenant_id),
      [
        w.tenants[0],
      ],
    );
    // After October began, a move from October 2 is allowed.
    const ok = await post(w, "/api/devices/assign-tenant", {
      tenant_id: w.c.id,
      sensor_ids: [w.sensors[0]],
      effective_from: "2026-10-02",
    });
    assert.equal(ok.status, 200);
  },
);

test(
  "a meter that sent nothing all month: billed by estimate, flagged, never settled by itself; a unit without a meter gets no bill",
  "2026-10-05T18:00:00Z",
  async (w) => {
    // unit_2's meter is removed: the unit stays, without a meter. unit_1's meter said nothing.
    const del = await call(w.t, "DELETE", `/api/devices/${w.stationId}/sensors/${w.sensors[1]}`, {
      token: w.admin,
    });
    assert.equal(del.status, 200, await del.clone().text());
    await del.body?.cancel();
    const run = await runBilling(w.t.deps, w.zoneId, "2026-09");
    const bills = await listUnitBills(w.t.deps.kv, w.stationId);
    assert.deepEqual(bills.map((b) => b.unit_id), ["unit_1"], "no bill for unit_2");
    const silent = bills[0];
    assert.deepEqual(silent.missing_readings, { days: 30, of: 30 });
    assert.equal(silent.is_estimation, true);
    assert.equal(silent.payment_status, "pending");
    assert.deepEqual(
      run.missing_readings.map((m) => [m.unit_id, m.days, m.of]),
      [["unit_1", 30, 30]],
    );
  },
);

test(
  "access follows the tenancy: the old tenant keeps their bills and loses the unit, the newcomer sees nothing from before",
  "2026-10-20T18:00:00Z",
  async (w) => {
    await readings(w, "SIM-A", [
      ["2026-09-01T01:00:00", 900],
      ["2026-09-30T23:00:00", 1000],
      ["2026-10-09T23:00:00", 1075],
      ["2026-10-19T23:00:00", 1100],
    ]);
    await runBilling(w.t.deps, w.zoneId, "2026-09");
    const [september] = await unitBills(w, "unit_1");
    const moved = await post(w, "/api/devices/assign-tenant", {
      tenant_id: w.c.id,
      sensor_ids: [w.sensors[0]],
      effective_from: "2026-10-10",
    });
    assert.equal(moved.status, 200);
    const sensor = w.sensors[0];
    const a = w.tenantTokens[0];
    const c = w.c.token;
    /** Who asks what, the status they get, and what the answer must hold. */
    type Answer = {
      bills: { id: number }[];
      devices: { id: number }[];
      summaries: { total_energy_kwh: { delta: number } };
      delta: number;
    };
    const table: [string, string, string, number, ((body: Answer) => void)?][] = [
      [
        "A",
        a,
        "/api/bills",
        200,
        (b) => assert.deepEqual(b.bills.map((x) => x.id), [september.id]),
      ],
      ["A", a, `/api/tenant-payments/${september.id}`, 200],
      [
        "A",
        a,
        "/api/devices?type=sensor",
        200,
        (b) => assert.ok(!b.devices.some((d) => d.id === sensor), "the unit is no longer A's"),
      ],
      ["A", a, `/api/measurements/${sensor}/summary?month=2026-10`, 404],
      ["C", c, "/api/bills", 200, (b) => assert.deepEqual(b.bills, [])],
      ["C", c, `/api/tenant-payments/${september.id}`, 404],
      [
        "C",
        c,
        "/api/devices?type=sensor",
        200,
        (b) => assert.ok(b.devices.some((d) => d.id === sensor), "the unit is C's"),
      ],
      // October for C: from the 10th only (1075 → 1100), not A's 75 kWh before it.
      [
        "C",
        c,
        `/api/measurements/${sensor}/summary?month=2026-10`,
        200,
        (b) => assert.equal(b.summaries.total_energy_kwh.delta, 25),
      ],
      [
        "C",
        c,
        `/api/analytics/delta?sensorId=${sensor}&startDate=2026-10-01&endDate=2026-10-21`,
        200,
        (b) => assert.equal(b.delta, 25),
      ],
      [
        "admin",
        w.admin,
        `/api/measurements/${sensor}/summary?month=2026-10`,
        200,
        (b) => assert.equal(b.summaries.total_energy_kwh.delta, 100),
      ],
    ];
    for (const [who, token, path, status, check] of table) {
      const res = await call(w.t, "GET", path, { token });
      const text = await res.text();
      assert.equal(res.status, status, `${who} GET ${path}: ${text}`);
      check?.(JSON.parse(text));
    }
  },
);

test(
  "a run killed after committing bills and before telling tenants: the next run (or sweep) tells each once",
  "2026-10-05T18:00:00Z",
  async (w) => {
    await readings(w, "SIM-A", [["2026-09-01T01:00:00", 0], ["2026-09-30T23:00:00", 40]]);
    await readings(w, "SIM-B", [["2026-09-01T01:00:00", 0], ["2026-09-30T23:00:00", 60]]);
    const notices = async (tenant: number) =>
      (await listNotifications(w.t.deps.kv, tenant, "all", 100))
        .filter((n) => n.type === "bill_created").length;
    // The commit of the bills went through; writing the notices did not (a killed process):
    // the notice writer fails once.
    const kv = w.t.deps.kv;
    const failing = new Proxy(kv, {
      get(target, prop) {
        // Reading the tenants to tell them is the first thing the notice writer does.
        if (prop === "getMany") {
          return (keys: Deno.KvKey[]) =>
            keys[0]?.[0] === "users" ? Promise.reject(new Error("killed")) : target.getMany(keys);
        }
        const v = Reflect.get(target, prop);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    await runBilling({ ...w.t.deps, kv: failing as Deno.Kv }, w.zoneId, "2026-09").catch(() => {});
    const bills = await listUnitBills(kv, w.stationId);
    assert.ok(bills.length > 0 && bills.every((b) => b.is_finalized), "the bills were committed");
    assert.deepEqual([await notices(w.tenants[0]), await notices(w.tenants[1])], [0, 0]);
    // The next run tells each tenant once; another run tells nobody again.
    await runBilling(w.t.deps, w.zoneId, "2026-09");
    assert.deepEqual([await notices(w.tenants[0]), await notices(w.tenants[1])], [1, 1]);
    await runBilling(w.t.deps, w.zoneId, "2026-09");
    await sweepOverdue(w.t.deps);
    assert.deepEqual([await notices(w.tenants[0]), await notices(w.tenants[1])], [1, 1]);
  },
);

test(
  "an access code's move-in date starts the tenancy of the tenant who registers with it; a bad date is refused",
  "2026-10-20T18:00:00Z",
  async (w) => {
    // unit_1 is left first, then offered by a code whose tenant moved in on the 12th.
    const out = await post(w, `/api/devices/remove-tenant/${w.sensors[0]}`, {
      effective_from: "2026-10-05",
    });
    assert.equal(out.status, 200);
    for (const move_in_date of ["2026-02-30", "1999-12-31"]) {
      const bad = await post(w, "/api/users/access-codes", {
        code: "MVEN2345",
        role: "user",
        assignments: { units: [`${w.sensors[0]}:unit_1`] },
        move_in_date,
      });
      assert.equal(bad.status, 400, move_in_date);
      assert.ok(JSON.stringify(bad.body).includes("2000"), JSON.stringify(bad.body));
    }
    const made = await post(w, "/api/users/access-codes", {
      code: "MVEN2345",
      role: "user",
      assignments: { units: [`${w.sensors[0]}:unit_1`] },
      move_in_date: "2026-10-12",
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const reg = await call(w.t, "POST", "/auth/register", {
      json: {
        email: "nueva@test.mx",
        password: "secret1",
        full_name: "Nueva Inquilina",
        phone: "+525512345678",
        role: "user",
        accessCode: "MVEN2345",
      },
    });
    assert.equal(reg.status, 201, await reg.clone().text());
    const id = (await reg.json()).user.id;
    const history = await call(w.t, "GET", `/api/devices/${w.sensors[0]}/tenancies`, {
      token: w.admin,
    });
    assert.deepEqual(
      (await history.json()).tenancies.map((t: { tenant_id: number; from: string | null }) => [
        t.tenant_id,
        t.from,
      ]),
      [[w.tenants[0], null], [id, atText("2026-10-12")]],
    );
  },
);
