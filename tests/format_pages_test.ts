/**
 * Dates, months, money and words in the reader's language (issue "What a newcomer trips on",
 * items 3, 7 and 10): the payment pages of an English and a German tenant, the tenant's bill
 * card with its tax line, one bill's status word on the admin's pages.
 */
import assert from "node:assert/strict";
import { billingWorld, meter, payBill, unitBillOf } from "./_billing_world.ts";
import { call, testsWith } from "./_helpers.ts";
import { runBilling } from "../services/billing/mod.ts";
import { localParts } from "../core/local_time.ts";
import { formatter } from "../core/format.ts";
import { periodLabel } from "../core/periods.ts";
import { trendOf } from "../core/insights.ts";
import { TrendText } from "../components/tenant/ConsumptionPage.tsx";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { loadI18n } from "../services/platform/i18n.ts";

/** The month before the current one, `YYYY-MM`. */
function lastMonth(now: number, off: number): string {
  const p = localParts(now, off);
  return new Date(Date.UTC(p.year, p.month - 2, 1)).toISOString().slice(0, 7);
}

const ES_MONTHS =
  /enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre/i;

async function world() {
  const w = await billingWorld({ tenants: [{ language: "en" }, { language: "de" }] });
  const period = lastMonth(Date.now(), w.t.deps.config.utcOffsetMinutes);
  await meter(w.t, "SIM-A", period, 300);
  await meter(w.t, "SIM-B", period, 300);
  await runBilling(w.t.deps, w.zoneId, period);
  return { w, period };
}

/** `Deno.test` in a fresh {@link world}, closed however the test ends. */
const worldTest = testsWith(world, ({ w }) => w.t.close());

const html = async (res: Response) => {
  assert.equal(res.status, 200);
  return await res.text();
};

worldTest(
  "the payment pages show dates, months and money in the tenant's language",
  async ({ w, period }) => {
    // 150 × 1 + 130 × 2 + 20 × 3 = 470; base 40; tax 16 % of 510 = 81.60; total 591.60
    const cases = [
      {
        i: 0,
        unit: "unit_1",
        money: "$591.60 MXN",
        month:
          /January|February|March|April|May|June|July|August|September|October|November|December/,
      },
      {
        i: 1,
        unit: "unit_2",
        money: "591,60 $ MXN",
        month: /Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember/,
      },
    ];
    for (const c of cases) {
      const lang = c.i === 0 ? "en" : "de";
      const bill = await unitBillOf(w, period, c.unit);
      assert.ok(bill.payment_due_date, "a finalized bill has a due date");
      const due = formatter(lang).date(bill.payment_due_date);
      const token = w.tenantTokens[c.i];
      const list = await html(await call(w.t, "GET", "/user/payments", { token }));
      const form = await html(await call(w.t, "GET", `/user/payment?bill=${bill.id}`, { token }));
      for (const page of [list, form]) {
        assert.ok(page.includes(due), `${lang}: due date ${due}`);
        assert.ok(page.includes(c.money), `${lang}: amount ${c.money}`);
        assert.match(page, c.month, `${lang}: month name`);
        assert.doesNotMatch(page, ES_MONTHS, `${lang}: no Spanish month name`);
      }
    }
    // The period reads as on every other page.
    const en = await html(await call(w.t, "GET", "/user/payments", { token: w.tenantTokens[0] }));
    const t = w.t.deps.i18n.t("en");
    assert.ok(en.includes(periodLabel(t, period)), periodLabel(t, period));
  },
);

worldTest(
  "the tenant's bill card shows the tax line; one bill offers its report only once",
  async ({ w, period }) => {
    const page = await html(
      await call(w.t, "GET", `/user/billing?period=${period}`, { token: w.tenantTokens[0] }),
    );
    const card = page.slice(page.indexOf('data-testid="tenant-bill"'));
    assert.match(card, /<dt>Tax<\/dt><dd data-testid="bill-tax">\$81\.60 MXN<\/dd>/);
    assert.match(page, /data-testid="bill-report"/);
    assert.doesNotMatch(
      page,
      /data-testid="period-pdf"/,
      "the period PDF of one bill is the same report",
    );
  },
);

Deno.test("a bill paid days after it was billed reads the same status word on the list, the report and the CSV", async () => {
  // Wednesday 2026-12-02 12:00 in Mexico City: November has ended.
  const w = await billingWorld({ now: Date.parse("2026-12-02T18:00:00.000Z") });
  try {
    await meter(w.t, "SIM-A", "2026-11", 300);
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    const bill = await unitBillOf(w, "2026-11");
    w.clock.now += 3 * 24 * 3_600_000;
    await payBill(w, bill.id);
    const cookie = `token=${w.admin}`;
    const q = `zone_id=${w.zoneId}&year=2026&period=2026-11`;
    const list = await html(await call(w.t, "GET", `/admin/units-billing?${q}`, { cookie }));
    const report = await html(
      await call(
        w.t,
        "GET",
        `/admin/report/station/${w.stationId}/unit/unit_1?period=2026-11`,
        { cookie },
      ),
    );
    const csv = await (await call(w.t, "GET", `/admin/units-billing/export.csv?${q}`, { cookie }))
      .text();
    const statusOf = (page: string) => /data-status="([a-z_]+)"/.exec(page)?.[1];
    assert.equal(statusOf(list), "saved");
    assert.equal(statusOf(report.slice(report.indexOf('data-period="2026-11"'))), "saved");
    const t = w.t.deps.i18n.t(w.adminUser.language ?? "es");
    assert.equal(t("billing.status.saved"), t("reports.status.saved"));
    assert.ok(csv.includes(`,${t("billing.status.saved")},`), csv);
    assert.ok(!csv.includes(t("billing.status.recalculated")));
  } finally {
    w.t.close();
  }
});

Deno.test("a consumption trend that rounds to 0 % reads without a falling arrow or -0 %", async () => {
  const i18n = await loadI18n();
  for (const lang of ["es", "en", "de"] as const) {
    const t = i18n.t(lang);
    const flat = renderToStaticMarkup(createElement(TrendText, { t, trend: trendOf(99.7, 100) }));
    assert.doesNotMatch(flat, /▼|-0\s?%/, `${lang}: ${flat}`);
    const down = renderToStaticMarkup(createElement(TrendText, { t, trend: trendOf(80, 100) }));
    assert.match(down, /▼.*-20\s?%/, `${lang}: ${down}`);
  }
});

Deno.test("the billing pickers offer no month that has not started", async () => {
  // Wednesday 2026-12-02 12:00 in Mexico City.
  const w = await billingWorld({ now: Date.parse("2026-12-02T18:00:00.000Z") });
  try {
    const cookie = `token=${w.admin}`;
    const admin = await html(
      await call(w.t, "GET", `/admin/units-billing?zone_id=${w.zoneId}&year=2026`, { cookie }),
    );
    const tenant = await html(
      await call(w.t, "GET", "/user/billing?year=2026", { token: w.tenantTokens[0] }),
    );
    for (const page of [admin, tenant]) {
      assert.match(page, /<option value="2026-12"/, "this month is offered");
      assert.match(page, /<option value="2026-11"/);
    }
    w.clock.now = Date.parse("2026-11-15T18:00:00.000Z");
    for (
      const path of [
        `/admin/units-billing?zone_id=${w.zoneId}&year=2026`,
        "/user/billing?year=2026",
      ]
    ) {
      const token = path.startsWith("/admin") ? w.admin : w.tenantTokens[0];
      const page = await html(await call(w.t, "GET", path, { token }));
      assert.doesNotMatch(page, /<option value="2026-12"/, `${path}: December has not started`);
      assert.match(page, /<option value="2026-11"/, path);
    }
  } finally {
    w.t.close();
  }
});

Deno.test("a zone price is shown with its stored precision on the zone, its versions and the tenant's pricing", async () => {
  const w = await billingWorld({ zone: { price_low: 0.793 } });
  try {
    const zone = await html(
      await call(w.t, "GET", `/admin/zones/${w.zoneId}`, { cookie: `token=${w.admin}` }),
    );
    assert.ok((zone.match(/\$0\.793 MXN/g) ?? []).length >= 2, "tier table and versions");
    const pricing = await html(
      await call(w.t, "GET", "/user/pricing", { token: w.tenantTokens[1] }),
    );
    assert.match(pricing, /\$0\.793 MXN/);
    for (const page of [zone, pricing]) assert.doesNotMatch(page, /0\.79 MXN|· 2 MXN/);
  } finally {
    w.t.close();
  }
});
