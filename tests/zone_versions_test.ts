/**
 * Price versions of a zone through the API and billing: a new version "from next month" leaves
 * earlier periods at their prices (a first run of last month, a recalculation of the month
 * before), a correction changes the version in force, the version list, the refusals; and the
 * high-consumption flag of a unit crossing its zone's limit.
 */
import assert from "node:assert/strict";
import { account, call, testApp } from "./_helpers.ts";
import {
  billingTest,
  type BillingWorld,
  meter,
  processPeriod,
  tieredZone,
  unitBillOf,
} from "./_billing_world.ts";
import { pdfText } from "./_pdf_text.ts";

/** 2026-04-10 at noon in Mexico City: March is last month, February two months ago. */
const NOW = Date.UTC(2026, 3, 10, 18);

/** Bills `period` after `kwh` on unit_1's meter, when given. */
const run = (w: BillingWorld, period: string, kwh?: number) =>
  processPeriod(w, period, kwh === undefined ? {} : { "SIM-A": kwh });

/** The tiered zone with `prices` and other fields. */
const body = (prices: Record<string, number>, extra: Record<string, unknown> = {}) =>
  tieredZone(prices, extra);

/** 200 kWh at the world's tiers: 150 × 1 + 50 × 2 = 250, base 40, tax 16 %: 336.40. */
const OLD_TOTAL = 33640;

billingTest(
  "new prices from next month leave last month's run and a recalculation at the old prices",
  { now: NOW },
  async (w) => {
    await run(w, "2026-02", 200);
    assert.equal((await unitBillOf(w, "2026-02")).total_cost, OLD_TOTAL);
    await meter(w.t, "SIM-A", "2026-03", 200);

    const res = await call(w.t, "PUT", `/api/zones/${w.zoneId}`, {
      token: w.admin,
      json: body({ price_low: 2, price_middle: 4, price_high: 6 }, { effective_from: "2026-05" }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    // The zone answers the prices in force today; the new ones wait for May.
    assert.equal((await res.json()).price_low, 1);
    const { versions } = await (await call(w.t, "GET", `/api/zones/${w.zoneId}/versions`, {
      token: w.admin,
    })).json();
    assert.deepEqual(
      versions.map((v: Record<string, unknown>) => [v.applies_from, v.price_low, v.in_force]),
      [[null, 1, true], ["2026-05-01", 2, false]],
    );
    const { history } = await (await call(w.t, "GET", `/api/zones/${w.zoneId}/history`, {
      token: w.admin,
    })).json();
    assert.equal(history.length, 2);
    // The spec's entry fields only; from local midnight of May 1st in Mexico City (UTC-6).
    assert.deepEqual(history[0], {
      effective_from: "2026-05-01T06:00:00.000Z",
      price_low: 2,
      price_middle: 4,
      price_high: 6,
      price_surplus: 0,
      summer_price_low: 0,
      winter_price_low: 0,
    });

    // Last month, billed only now, and two months ago, recalculated now: the old prices.
    await run(w, "2026-03");
    const march = await unitBillOf(w, "2026-03");
    assert.equal(march.total_cost, OLD_TOTAL);
    const recalc = await call(w.t, "PUT", `/api/bills/${(await unitBillOf(w, "2026-02")).id}`, {
      token: w.admin,
      json: {
        override_reason: "meter checked",
        recalculation_method: "manual_input",
        energy_consumption: "200",
      },
    });
    assert.equal(recalc.status, 200, await recalc.clone().text());
    assert.equal((await recalc.json()).total_cost, 336.4);

    // May, once it has ended, is billed at the new prices: 150 × 2 + 50 × 4 = 500, tax on 540.
    w.clock.now = Date.UTC(2026, 5, 3, 18);
    await run(w, "2026-05", 200);
    assert.equal((await unitBillOf(w, "2026-05")).total_cost, 62640);
    // The zone now answers May's prices.
    const zone = await (await call(w.t, "GET", `/api/zones/${w.zoneId}`, { token: w.admin }))
      .json();
    assert.equal(zone.price_low, 2);
  },
);

billingTest(
  "without effective_from the version in force is corrected; a bad month changes nothing",
  { now: NOW },
  async (w) => {
    const path = `/api/zones/${w.zoneId}`;
    const later = await call(w.t, "PUT", path, {
      token: w.admin,
      json: body({ price_low: 5 }, { effective_from: "2026-06" }),
    });
    assert.equal(later.status, 200);
    await later.body?.cancel();
    const fix = await call(w.t, "PUT", path, { token: w.admin, json: body({ price_low: 1.5 }) });
    assert.equal(fix.status, 200);
    assert.equal((await fix.json()).price_low, 1.5);
    for (const bad of ["2026-13", "2026-5", "May", 202605]) {
      const res = await call(w.t, "PUT", path, {
        token: w.admin,
        json: body({ price_low: 9 }, { effective_from: bad }),
      });
      assert.equal(res.status, 400, String(bad));
      const answer = await res.json();
      assert.match(answer.errors.effective_from, /mes|YYYY-MM|AAAA-MM/i);
    }
    const { versions } = await (await call(w.t, "GET", `${path}/versions`, { token: w.admin }))
      .json();
    assert.deepEqual(versions.map((v: Record<string, unknown>) => [v.applies_from, v.price_low]), [
      [null, 1.5],
      ["2026-06-01", 5],
    ]);
    // The old prices price a past month as corrected; tenants may not read the versions.
    await run(w, "2026-03", 100);
    assert.equal((await unitBillOf(w, "2026-03")).energy_cost, 15000);
    const tenant = await call(w.t, "GET", `${path}/versions`, { token: w.tenantTokens[0] });
    assert.equal(tenant.status, 403);
    await tenant.body?.cancel();
  },
);

billingTest("a unit whose 12-month average crosses the zone's limit is flagged on its bill", {
  now: NOW,
  zone: { dac_limit_kwh: 250 },
}, async (w) => {
  await run(w, "2026-01", 200);
  await run(w, "2026-02", 200);
  await run(w, "2026-03", 400);
  const feb = (await unitBillOf(w, "2026-02")).calculation_details;
  assert.deepEqual(feb.high_consumption, {
    average_kwh: 200,
    months: 2,
    limit_kwh: 250,
    exceeded: false,
  });
  const id = (await unitBillOf(w, "2026-03")).id;
  const { bills } = await (await call(w.t, "GET", "/api/bills", { token: w.admin })).json();
  const march = bills.find((b: { id: number }) => b.id === id);
  assert.deepEqual(march.calculation_details.high_consumption, {
    average_kwh: 266.67,
    months: 3,
    limit_kwh: 250,
    exceeded: true,
  });
  // The unit billing list and the unit report show the flag and the average.
  const page = async (path: string) => {
    const res = await call(w.t, "GET", path, { token: w.admin });
    assert.equal(res.status, 200, path);
    return await res.text();
  };
  const list = await page(`/admin/billing?zone_id=${w.zoneId}&year=2026&period=2026-03`);
  assert.match(list, /data-testid="dac-flag"[^>]*title="[^"]*266\.67/);
  const febList = await page(`/admin/billing?zone_id=${w.zoneId}&year=2026&period=2026-02`);
  assert.doesNotMatch(febList, /data-testid="dac-flag"/);
  const report = await page(`/admin/report/station/${w.stationId}/unit/unit_1?month=2026-03`);
  assert.match(report, /data-testid="high-consumption" data-exceeded="true"/);
  assert.match(report, /266\.67 kWh/);
  // The tenant's bill says so too, in their language (Spanish).
  const bill = await call(w.t, "GET", "/user/billing?period=2026-03", {
    token: w.tenantTokens[0],
  });
  assert.match(await bill.text(), /Alto consumo: promedio de 12 meses 266\.67 kWh/);
  const pdfPath = `/admin/report/station/${w.stationId}/pdf?type=unit&period=2026-03&unit=unit_1`;
  const pdf = await call(w.t, "GET", `${pdfPath}&language=en`, { token: w.admin });
  const { lines } = await pdfText(new Uint8Array(await pdf.arrayBuffer()));
  assert.match(lines.join(" "), /High consumption: 12-month average 266\.67 kWh/);
});

billingTest("a zone of the spec's fields bills as before: no flag, no minimum, no fixed charge", {
  now: NOW,
}, async (w) => {
  await run(w, "2026-03", 10);
  const b = await unitBillOf(w, "2026-03");
  assert.equal(b.energy_cost, 1000);
  assert.equal(b.base_tariff, 4000);
  assert.deepEqual(Object.keys(b.calculation_details).sort(), [
    "pricing_mode",
    "season",
    "summer_days",
    "tiers",
    "winter_days",
  ]);
});

billingTest("a bimonthly period spanning a new version is split by days and says so", {
  now: NOW,
  zone: { billing_type: "bimonthly" },
}, async (w) => {
  const res = await call(w.t, "PUT", `/api/zones/${w.zoneId}`, {
    token: w.admin,
    json: body({ price_low: 2, price_middle: 4, price_high: 6 }, {
      billing_type: "bimonthly",
      effective_from: "2026-02",
    }),
  });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  await run(w, "2026-01-02", 200);
  const b = await unitBillOf(w, "2026-01-02");
  const details = b.calculation_details;
  assert.deepEqual(details.price_versions, [
    { applies_from: null, from: "2026-01-01", to: "2026-01-31", days: 31 },
    { applies_from: "2026-02-01", from: "2026-02-01", to: "2026-02-28", days: 28 },
  ]);
  // Each tier, base and tax weighted by days (31 and 28 of 59), each rounded half up:
  // energy 7881 + 5254 + 14237 + 9492, base 2102 + 1898, tax 2438 + 4100 (cents).
  assert.equal(b.energy_cost, 36864);
  assert.equal(b.base_tariff, 4000);
  assert.equal(b.tax_cost, 6538);
  assert.equal(b.total_cost, 47402);
  const kept = b.zone_snapshot!.price_versions!.map((v) => v.applies_from);
  assert.deepEqual(kept, [null, "2026-02-01"]);
  const report = await call(
    w.t,
    "GET",
    `/admin/report/station/${w.stationId}/unit/unit_1?month=2026-01-02`,
    { token: w.admin },
  );
  const html = await report.text();
  assert.equal(
    (html.match(/data-testid="price-version-part"/g) ?? []).length,
    2,
    html.slice(0, 200),
  );
});

billingTest(
  "tenants see the version in force in the business time zone: not a later one, a past one only from its day",
  { now: NOW },
  async (w) => {
    const path = `/api/zones/${w.zoneId}`;
    const put = async (json: Record<string, unknown>) => {
      const res = await call(w.t, "PUT", path, { token: w.admin, json });
      assert.equal(res.status, 200, await res.clone().text());
      await res.body?.cancel();
    };
    /** The tenant's zone (API) and the first tier's price on their pricing page. */
    const seen = async () => {
      const zone = await (await call(w.t, "GET", path, { token: w.tenantTokens[0] })).json();
      const page = await (await call(w.t, "GET", "/user/pricing", { token: w.tenantTokens[0] }))
        .text();
      const first = page.match(/tenant-levels.*?<td class="num">([^<]+)</s)?.[1];
      return [zone.price_low, zone.fixed_charge_monthly ?? 0, first];
    };
    // June's prices and fixed charge wait for June; February's apply since February.
    await put(body({ price_low: 5 }, { fixed_charge_monthly: 50, effective_from: "2026-06" }));
    assert.deepEqual(await seen(), [1, 0, "$1.00 MXN"]);
    await put(body({ price_low: 1.5 }, { effective_from: "2026-02" }));
    assert.deepEqual(await seen(), [1.5, 0, "$1.50 MXN"]);
    // May 31st, 23:59 in Mexico City (UTC-6) is still February's version; June 1st is June's.
    w.clock.now = Date.UTC(2026, 5, 1, 5, 59);
    assert.deepEqual(await seen(), [1.5, 0, "$1.50 MXN"]);
    w.clock.now = Date.UTC(2026, 5, 1, 6, 0);
    assert.deepEqual(await seen(), [5, 50, "$5.00 MXN"]);
  },
);

Deno.test("a version's month is within 2000-01 and 2100-12; others are refused in the admin's language", async () => {
  const t = await testApp();
  try {
    const first = await account(t, "admin");
    const created = await call(t, "POST", "/api/zones", { token: first.token, json: body({}) });
    assert.equal(created.status, 201);
    const path = `/api/zones/${(await created.json()).id}`;
    const messages = {
      es: "El mes de los nuevos precios debe estar entre 2000-01 y 2100-12",
      en: "The month of the new prices must be between 2000-01 and 2100-12",
      de: "Der Monat der neuen Preise muss zwischen 2000-01 und 2100-12 liegen",
    };
    for (const language of ["es", "en", "de"] as const) {
      const message = messages[language];
      const admin = await account(t, "admin", { language });
      for (const month of ["0000-01", "1999-12", "2101-01", "9999-12"]) {
        const res = await call(t, "PUT", path, {
          token: admin.token,
          json: body({ price_low: 9 }, { effective_from: month }),
        });
        assert.equal(res.status, 400, month);
        assert.equal((await res.json()).errors.effective_from, message, `${language} ${month}`);
      }
    }
    for (const month of ["2000-01", "2100-12"]) {
      const res = await call(t, "PUT", path, {
        token: first.token,
        json: body({ price_low: 2 }, { effective_from: month }),
      });
      assert.equal(res.status, 200, month);
      await res.body?.cancel();
    }
    const { versions } = await (await call(t, "GET", `${path}/versions`, { token: first.token }))
      .json();
    assert.deepEqual(versions.map((v: Record<string, unknown>) => [v.applies_from, v.price_low]), [
      [null, 1],
      ["2000-01-01", 2],
      ["2100-12-01", 2],
    ]);
  } finally {
    t.close();
  }
});
