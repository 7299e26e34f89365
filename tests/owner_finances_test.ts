/**
 * The owner's Finanzas page opens with their real figures (the newcomer's issue): billed to
 * tenants, paid, pending, and owed to the provider (commission, fees, tax), in all and by
 * period, equal to the billing overview's figures (one aggregation); then the roadmap, whose
 * features that exist now are under Available Now and whose launch is not in the past.
 */
import assert from "node:assert/strict";
import { call } from "./_helpers.ts";
import { billingWorld, meter, payBill } from "./_billing_world.ts";
import { runBilling } from "../services/billing/mod.ts";
import { listCustomerBills, listUnitBills } from "../db/bills.ts";
import { ownerOverview } from "../services/finances/mod.ts";
import { formatter } from "../core/format.ts";

/** Money as the English-reading owner sees it. */
const moneyText = (cents: number, currency: string) => formatter("en").money(cents, currency);
/** Text as a pattern that matches it literally. */
const literal = (text: string) => new RegExp(text.replace(/[$.]/g, "\\$&"));
import { getUser } from "../db/users.ts";
import { launchQuarters } from "../components/owner/FinancesPage.tsx";

const T0 = Date.parse("2026-12-03T15:00:00.000Z");

/** The text of the element with `data-testid="id"` (its first 600 characters, no tags). */
function textOf(html: string, id: string): string {
  const i = html.indexOf(`data-testid="${id}"`);
  assert.ok(i >= 0, `no ${id}`);
  return html.slice(i, i + 600).replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
}

Deno.test("/customer/finances: billed, paid, pending and owed from the same aggregation, by period; the roadmap after", async () => {
  const w = await billingWorld({ now: T0, owner: { language: "en" } });
  try {
    await meter(w.t, "SIM-A", "2026-11", 200);
    await meter(w.t, "SIM-B", "2026-11", 300.5);
    assert.deepEqual((await runBilling(w.t.deps, w.zoneId, "2026-11")).failures, []);
    const units = await listUnitBills(w.t.deps.kv, w.stationId, "2026-11");
    await payBill(w, units[0].id);
    const [station] = await listCustomerBills(w.t.deps.kv, w.stationId);
    const billed = units.reduce((n, b) => n + b.total_cost, 0);
    const paid = units[0].total_cost;

    const html = await (await call(w.t, "GET", "/customer/finances", { token: w.owner!.token }))
      .text();
    assert.ok(html.indexOf("owner-figures") < html.indexOf("roadmap-banner"), "figures first");
    assert.match(textOf(html, "owner-billed"), literal(moneyText(billed, "MXN")));
    assert.match(textOf(html, "owner-billed"), /2 bills · 1 paid/);
    assert.match(textOf(html, "owner-paid"), literal(moneyText(paid, "MXN")));
    assert.match(textOf(html, "owner-pending"), literal(moneyText(billed - paid, "MXN")));
    assert.match(textOf(html, "owner-owed"), literal(moneyText(station.total_amount, "MXN")));
    assert.match(
      textOf(html, "owner-owed"),
      literal(`Commission ${moneyText(station.commission_amount, "MXN")}`),
    );
    const row = /<tr[^>]*data-period="2026-11"[\s\S]*?<\/tr>/.exec(html)?.[0] ?? "";
    assert.match(row, /November 2026/);
    assert.ok(row.includes(moneyText(billed - paid, "MXN")), row);
    // The same aggregation as the billing overview.
    const owner = await getUser(w.t.deps.kv, w.owner!.id);
    const overview = await ownerOverview(w.t.deps, owner!, 2026);
    assert.equal(overview.yearly_overview.total_revenue, billed);
    assert.equal(overview.yearly_overview.payment_revenue, paid);

    // The roadmap: what exists now is available, the rest planned, launch from next quarter.
    const roadmap = html.slice(
      html.indexOf('data-testid="roadmap"'),
      html.indexOf("available-now"),
    );
    assert.doesNotMatch(
      roadmap,
      /data-feature="(cash_flow_dashboard|tenant_payment_tracking|electronic_invoicing)"/,
    );
    assert.equal(roadmap.match(/data-feature=/g)?.length, 6);
    const available = textOf(html, "available-now");
    assert.match(available, /Tenant/);
    assert.match(textOf(html, "roadmap-banner"), /6 planned features 2 high priority/);
    assert.match(textOf(html, "roadmap-launch"), /Planned launch: Q1 2027 – Q2 2027/);
    assert.doesNotMatch(html, /2025/);
  } finally {
    w.t.close();
  }
});

Deno.test("the roadmap's launch: the two quarters after today's", () => {
  assert.deepEqual(launchQuarters("2026-12"), {
    from: { q: 1, year: 2027 },
    to: { q: 2, year: 2027 },
  });
  assert.deepEqual(launchQuarters("2026-08"), {
    from: { q: 4, year: 2026 },
    to: { q: 1, year: 2027 },
  });
  assert.deepEqual(launchQuarters("2027-01"), {
    from: { q: 2, year: 2027 },
    to: { q: 3, year: 2027 },
  });
});
