/**
 * The tenant's portal (issue 11): dashboard, consumption, pricing and billing pages and the
 * tenant billing overview API, on a world with two tenants of one station. A tenant sees only
 * their own unit, bills and readings; the estimate of a finished month equals its bill.
 */
import assert from "node:assert/strict";
import { billingWorld, meter } from "./_billing_world.ts";
import { account, call, refusedQueries, testsWith } from "./_helpers.ts";
import { runBilling } from "../services/billing/mod.ts";
import { unitPeriodEstimate } from "../services/tenant/mod.ts";
import { getUser, publicUser } from "../db/users.ts";
import { localParts } from "../core/local_time.ts";

/** The month before the current one, `YYYY-MM`. */
function lastMonth(now: number, off: number): string {
  const p = localParts(now, off);
  const d = new Date(Date.UTC(p.year, p.month - 2, 1));
  return d.toISOString().slice(0, 7);
}

async function world() {
  const w = await billingWorld();
  const period = lastMonth(Date.now(), w.t.deps.config.utcOffsetMinutes);
  await meter(w.t, "SIM-A", period, 300);
  await meter(w.t, "SIM-B", period, 100);
  await runBilling(w.t.deps, w.zoneId, period);
  const sensors: number[] = [];
  for (const token of w.tenantTokens) {
    const res = await call(w.t, "GET", "/api/devices?type=sensor", { token });
    const body = await res.json();
    sensors.push((body.devices ?? body)[0].id);
  }
  return { w, period, sensors };
}

/** `Deno.test` in a fresh {@link world}, closed however the test ends. */
const worldTest = testsWith(world, ({ w }) => w.t.close());

const page = async (res: Response) => {
  assert.equal(res.status, 200, `status ${res.status}`);
  const html = await res.text();
  assert.doesNotMatch(html, /tenant\.[a-z_]+\.[a-z_]/, "a raw locale key is on the page");
  return html;
};

worldTest(
  "the tenant's bill and the estimate of the finished month agree to the cent",
  async ({ w, period, sensors }) => {
    // 150 × 1 + 130 × 2 + 20 × 3 = 470; base 40; tax 16 % of 510 = 81.60; total 591.60
    const res = await call(w.t, "GET", `/api/tenant-billing-overview/detail?period=${period}`, {
      token: w.tenantTokens[0],
    });
    assert.equal(res.status, 200);
    const { unit_bills } = await res.json();
    assert.equal(unit_bills.length, 1);
    assert.equal(unit_bills[0].unit_id, "unit_1");
    assert.equal(unit_bills[0].total_cost, 591.6);
    assert.equal(unit_bills[0].unit_name, "Depto 1");
    assert.equal(unit_bills[0].station_name, "Norte");
    const user = publicUser((await getUser(w.t.deps.kv, w.tenants[0]))!);
    const est = await unitPeriodEstimate(w.t.deps, user, sensors[0], period);
    assert.equal(est.total_cost, 59160);
    const html = await page(
      await call(w.t, "GET", `/user/billing?period=${period}`, { token: w.tenantTokens[0] }),
    );
    assert.match(html, /591\.60 MXN/);
    assert.match(html, new RegExp(`<option value="${period}" selected`));
    assert.doesNotMatch(html, /Depto 2/);
    // The admin's unit report shows the same total.
    const report = await call(
      w.t,
      "GET",
      `/admin/report/station/${w.stationId}/unit/unit_1?period=${period}`,
      { token: w.admin },
    );
    assert.equal(report.status, 200);
    assert.match(await report.text(), /591\.60 MXN/);
  },
);

worldTest(
  "GET /api/tenant-billing-overview answers only for the caller's own bills",
  async ({ w, period }) => {
    const year = period.slice(0, 4);
    const [a, b] = await Promise.all(
      w.tenantTokens.map(async (token) =>
        (await call(w.t, "GET", `/api/tenant-billing-overview/overview?year=${year}`, { token }))
          .json()
      ),
    );
    assert.equal(a.yearly_overview.total_cost, 591.6);
    assert.equal(a.yearly_overview.total_bills, 1);
    assert.deepEqual(a.period_data, [
      { period, total_cost: 591.6, energy_consumption: 300, bill_count: 1 },
    ]);
    // 100 × 1 + 40 = 140; tax 22.40; total 162.40
    assert.equal(b.yearly_overview.total_cost, 162.4);
    const type = await call(w.t, "GET", "/api/tenant-billing-overview/billing-type", {
      token: w.tenantTokens[1],
    });
    assert.deepEqual(await type.json(), {
      billing_type: "monthly",
      currency: "MXN",
      sensors_count: 1,
    });
  },
);

worldTest(
  "the tenant billing overview refuses a bad query with 400 naming the field",
  async ({ w }) => {
    const token = w.tenantTokens[0];
    await refusedQueries(w.t, token, {
      "/api/tenant-billing-overview/overview?year=abc": "year",
      "/api/tenant-billing-overview/overview?year=1999": "year",
      "/api/tenant-billing-overview/detail": "period",
      "/api/tenant-billing-overview/detail?period=2026-13": "period",
    });
    assert.equal((await call(w.t, "GET", "/user/billing?year=x", { token })).status, 400);
    assert.equal((await call(w.t, "GET", "/user?chart=x", { token })).status, 400);
  },
);

worldTest("a tenant's pages show their unit and never another tenant's", async ({ w, sensors }) => {
  const token = w.tenantTokens[1]; // the second tenant reads English
  const home = await page(await call(w.t, "GET", "/user", { token }));
  assert.match(home, /Depto 2/);
  assert.doesNotMatch(home, /Depto 1|SIM-A/);
  assert.doesNotMatch(home, /data-testid="tenant-empty"/);
  assert.match(home, /162\.40 MXN/); // the most recent bill
  for (const chart of ["power", "consumption", "monthly"]) {
    await page(await call(w.t, "GET", `/user?chart=${chart}`, { token }));
  }
  const list = await page(await call(w.t, "GET", "/user/consumption", { token }));
  assert.match(list, new RegExp(`/user/consumption/${sensors[1]}`));
  assert.doesNotMatch(list, new RegExp(`/user/consumption/${sensors[0]}"`));
  for (const tab of ["overview", "analytics", "insights"]) {
    const html = await page(
      await call(w.t, "GET", `/user/consumption/${sensors[1]}?tab=${tab}`, { token }),
    );
    assert.match(html, new RegExp(`data-testid="unit-${tab}"`));
  }
  const analytics = await page(
    await call(w.t, "GET", `/user/consumption/${sensors[1]}?tab=analytics`, { token }),
  );
  assert.match(analytics, /6:00-9:00 AM/);
  assert.match(analytics, /11:00 PM-5:00 AM/);
  assert.equal(
    (await call(w.t, "GET", `/user/consumption/${sensors[0]}`, { token })).status,
    404,
  );
  const pricing = await page(await call(w.t, "GET", "/user/pricing", { token }));
  assert.match(pricing, /Tiered Pricing/);
  assert.match(pricing, /Up to 150 kWh/);
  assert.match(pricing, /Not configured/);
  assert.doesNotMatch(pricing, /SIM-A/);
});

worldTest("a tenant without units sees the empty states", async ({ w }) => {
  const { token } = await account(w.t, "user");
  const home = await page(await call(w.t, "GET", "/user", { token }));
  assert.match(home, /data-testid="tenant-empty"/);
  assert.match(home, /Please contact your administrator/);
  const pricing = await page(await call(w.t, "GET", "/user/pricing", { token }));
  assert.match(pricing, /No devices assigned to your account\./);
  const bills = await page(await call(w.t, "GET", "/user/billing", { token }));
  assert.match(bills, /No bills found/);
});

worldTest(
  "a tenant downloads their bill's report and not another tenant's",
  async ({ w, period }) => {
    const station = w.stationId;
    const q = (unit: string) =>
      `/user/billing/report?station=${station}&unit=${unit}&period=${period}&language=es`;
    const res = await call(w.t, "GET", q("unit_1"), { token: w.tenantTokens[0] });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/pdf");
    assert.match(
      res.headers.get("content-disposition") ?? "",
      new RegExp(`monthly_report_${station}_unit_1_${period}\\.pdf`),
    );
    assert.ok((await res.arrayBuffer()).byteLength > 1000);
    const other = await call(w.t, "GET", q("unit_1"), { token: w.tenantTokens[1] });
    assert.equal(other.status, 404);
    await other.body?.cancel();
    const pdf = await call(w.t, "GET", `/user/billing/pdf?period=${period}`, {
      token: w.tenantTokens[0],
    });
    assert.equal(pdf.headers.get("content-type"), "application/pdf");
    await pdf.body?.cancel();
    const bad = await call(
      w.t,
      "GET",
      `/user/billing/report?station=x&unit=unit_1&period=${period}`,
      {
        token: w.tenantTokens[0],
        headers: { accept: "application/json" },
      },
    );
    assert.equal(bad.status, 400);
    assert.ok("station" in (await bad.json()).errors);
  },
);
