/**
 * Bill notices are stored as a type plus parameters and worded when they are read, in the
 * reader's language (issue 9): the same stored `bill_created` notice reads in Spanish, then in
 * English once the tenant switches language, then in German, through `GET /api/notifications`
 * and the `/notifications` page; the period is said as in a sentence ("noviembre 2026",
 * "Nov–Dic 2026" with an en dash for a bimonthly period), the amount as the reader writes money
 * (`$336.40 MXN`, `336,40 $ MXN`), the due date as the reader writes dates; each notice links to the bill.
 *
 * The world (built here, with a movable clock and tokens that outlive the weeks it moves):
 * zone "Tiered" (MXN; 1.00/kWh to 150, 2.00 to 280, 3.00 above; base 40.00; tax 16 %), monthly
 * or bimonthly, station "Norte" with unit_1 "Depto 1" metered by SIM-A for a Spanish tenant.
 */
import assert from "node:assert/strict";
import { call, type TestApp } from "./_helpers.ts";
import { billingWorld, meter } from "./_billing_world.ts";
import { listUnitBills } from "../db/bills.ts";
import { listNotifications } from "../db/notifications.ts";
import { updateUser } from "../db/users.ts";
import { runBilling } from "../services/billing/mod.ts";

interface World {
  t: TestApp;
  zoneId: number;
  stationId: number;
  tenant: { id: number; email: string; full_name: string; token: string };
}

/** A zone of `billingType`, one station with unit_1 metered for a Spanish-speaking tenant. */
async function world(billingType: "monthly" | "bimonthly", now: number): Promise<World> {
  const w = await billingWorld({
    now,
    zone: { billing_type: billingType },
    tenants: [{ language: "es", full_name: "Ana Pérez" }],
  });
  const [tenant] = w.tenantUsers;
  return {
    t: w.t,
    zoneId: w.zoneId,
    stationId: w.stationId,
    tenant: {
      id: tenant.id,
      email: tenant.email,
      full_name: tenant.full_name,
      token: w.tenantTokens[0],
    },
  };
}

/** Meters `kwh` on the tenant's unit over `period`, bills it and answers the (only) bill. */
async function billed(w: World, period: string, kwh: number) {
  await meter(w.t, "SIM-A", period, kwh);
  const res = await runBilling(w.t.deps, w.zoneId, period);
  assert.equal(res.finalized, true);
  const [bill] = await listUnitBills(w.t.deps.kv);
  return bill;
}

interface ReadNotice {
  id: number;
  type: string;
  title: string;
  message: string;
  link: string | null;
}

/** The tenant's bill_created notices as `GET /api/notifications` words them. */
async function readNotices(w: World): Promise<ReadNotice[]> {
  const res = await call(w.t, "GET", "/api/notifications", { token: w.tenant.token });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.ok(Array.isArray(body.notifications), JSON.stringify(body).slice(0, 200));
  return body.notifications.filter((n: ReadNotice) => n.type === "bill_created");
}

/** Switches the tenant's language through the profile API, as the settings screen does. */
async function switchLanguage(w: World, language: "es" | "en" | "de") {
  const res = await call(w.t, "PUT", "/api/users/profile", {
    token: w.tenant.token,
    json: { email: w.tenant.email, full_name: w.tenant.full_name, phone: "", language },
  });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal((await res.json()).language, language);
}

/** The /notifications page as the tenant sees it. */
async function page(w: World): Promise<string> {
  const res = await call(w.t, "GET", "/notifications", { cookie: `token=${w.tenant.token}` });
  assert.equal(res.status, 200);
  return await res.text();
}

Deno.test("the same stored bill_created notice reads in Spanish, then English after the switch, then German", async () => {
  // Thursday 2026-12-03 09:00 local: November has ended; due 10 business days later, 17 Dec.
  const w = await world("monthly", Date.parse("2026-12-03T15:00:00.000Z"));
  try {
    const bill = await billed(w, "2026-11", 200);
    assert.equal(bill.total_cost, 33640);
    assert.equal(bill.payment_due_date, "2026-12-17");
    const stored = await listNotifications(w.t.deps.kv, w.tenant.id, "all", 50);
    assert.equal(stored.length, 1);

    const [es] = await readNotices(w);
    assert.equal(es.id, stored[0].id);
    assert.equal(es.title, "Factura de noviembre 2026 para Depto 1: $336.40 MXN");
    assert.match(es.message, /Norte/);
    assert.match(es.message, /336\.40 MXN/);
    assert.match(es.message, /17 de diciembre de 2026/);
    assert.equal(es.link, "/user/billing?period=2026-11");
    assert.ok((await page(w)).includes("Factura de noviembre 2026 para Depto 1: $336.40 MXN"));

    await switchLanguage(w, "en");
    const [en] = await readNotices(w);
    assert.equal(en.id, es.id);
    assert.equal(en.title, "November 2026 bill for Depto 1: $336.40 MXN");
    assert.match(en.message, /December 17, 2026/);
    assert.equal(en.link, "/user/billing?period=2026-11");
    const enPage = await page(w);
    assert.ok(enPage.includes("November 2026 bill for Depto 1: $336.40 MXN"));
    assert.ok(!enPage.includes("Factura de noviembre"));
    assert.ok(enPage.includes('href="/user/billing?period=2026-11"'));

    // A language change written straight to the store is honoured too.
    const u = await updateUser(w.t.deps.kv, w.tenant.id, { language: "de" }, Date.now());
    assert.equal(u?.language, "de");
    const [de] = await readNotices(w);
    assert.equal(de.id, es.id);
    assert.equal(de.title, "Rechnung November 2026 für Depto 1: 336,40 $ MXN");
    assert.match(de.message, /17\. Dezember 2026/);

    // Reading never rewrote what is stored: still the type and its parameters.
    assert.deepEqual(await listNotifications(w.t.deps.kv, w.tenant.id, "all", 50), stored);
    assert.equal(stored[0].params?.period, "2026-11");
    assert.equal(stored[0].params?.amount, 33640);
  } finally {
    w.t.close();
  }
});

Deno.test("a bimonthly bill's notice says the period as 'Nov–Dic 2026' (en dash) in Spanish, 'Nov–Dec 2026' in English", async () => {
  // Wednesday 2027-01-06 09:00 local: the bimonthly period Nov–Dec 2026 has ended.
  const w = await world("bimonthly", Date.parse("2027-01-06T15:00:00.000Z"));
  try {
    const bill = await billed(w, "2026-11-12", 420);
    assert.equal(bill.billing_period, "2026-11-12");
    assert.ok(bill.total_cost > 0);
    const amount = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2 })
      .format(bill.total_cost / 100);

    const [es] = await readNotices(w);
    assert.equal(es.title, `Factura de Nov\u2013Dic 2026 para Depto 1: $${amount} MXN`);
    assert.equal(es.link, "/user/billing?period=2026-11-12");

    await switchLanguage(w, "en");
    const [en] = await readNotices(w);
    assert.equal(en.id, es.id);
    assert.equal(en.title, `Nov\u2013Dec 2026 bill for Depto 1: $${amount} MXN`);
    assert.equal(en.link, "/user/billing?period=2026-11-12");

    await switchLanguage(w, "de");
    const [de] = await readNotices(w);
    assert.equal(
      de.title,
      `Rechnung Nov.\u2013Dez. 2026 für Depto 1: ${
        new Intl.NumberFormat("de-DE", { minimumFractionDigits: 2 }).format(bill.total_cost / 100)
      } $ MXN`,
    );
  } finally {
    w.t.close();
  }
});
