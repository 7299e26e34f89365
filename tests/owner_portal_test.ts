/**
 * The owner's screens (spec 001 section 2, customer screens): the installation's units, billing
 * summary and total profit, the invoice PDF with the admin station report's figures, the unit
 * page with live phases and disconnections, and no owner seeing another owner's station.
 */
import assert from "node:assert/strict";
import { billingWorld, meter } from "./_billing_world.ts";
import { account, assertIncludesAll, call, testsWith } from "./_helpers.ts";
import { pdfText } from "./_pdf_text.ts";
import { runBilling } from "../services/billing/mod.ts";
import { createStatusService } from "../services/devices/mod.ts";

const MIN = 60_000;
const NOW = Date.parse("2026-02-03T18:00:00Z");

async function world() {
  const w = await billingWorld({ owner: { full_name: "Carmen Núñez", language: "en" } });
  assert.ok(w.owner);
  await meter(w.t, "SIM-A", "2026-01", 200);
  await meter(w.t, "SIM-B", "2026-01", 300.5);
  w.t.deps.now = () => NOW;
  const run = await runBilling(w.t.deps, w.zoneId, "2026-01");
  assert.equal(run.bills_created, 2);
  return { ...w, customer: w.owner.token };
}

const html = async (res: Response) => {
  const text = await res.text();
  return text.replace(/<!-- -->/g, "");
};

/** The owner's page at `path`, answered 200. */
async function ownerPage(w: World, path: string): Promise<string> {
  const res = await call(w.t, "GET", path, { token: w.customer });
  assert.equal(res.status, 200, path);
  return await html(res);
}

type World = Awaited<ReturnType<typeof world>>;

/** A test with a fresh {@link world}, closed afterwards. */
const test = testsWith(world, (w) => w.t.close());

test("the installation shows its units, the month's billing summary and total profit", async (w) => {
  const page = await ownerPage(w, `/customer/installations/${w.stationId}?month=2026-01`);
  assertIncludesAll(page, [
    "Norte",
    "Depto 1",
    "Depto 2",
    "200.00 kWh",
    "300.50 kWh",
    "72.15 MXN", // commission
    "19.54 MXN", // tax
    "141.69 MXN", // total
    "788.05 MXN", // the owner's profit: 929.74 − 141.69
    `/customer/installations/${w.stationId}/unit/${w.sensors[0]}`,
  ]);
  // Only the total is metered: the phases split 40/35/25.
  assert.ok(page.includes("Phase A: 80.00 kWh (40%)"));
  assert.ok(page.includes("Phase C: 50.00 kWh (25%)"));

  const feb = await html(
    await call(w.t, "GET", `/customer/installations/${w.stationId}?month=2026-02`, {
      token: w.customer,
    }),
  );
  assert.ok(feb.includes("No bill for this month yet"));
});

test("the invoice carries the admin station report's commission, fee, tax and totals", async (w) => {
  const admin = await html(
    await call(w.t, "GET", `/admin/report/station/${w.stationId}?period=2026-01`, {
      token: w.admin,
    }),
  );
  const res = await call(
    w.t,
    "GET",
    `/customer/installations/${w.stationId}/invoice?month=2026-01&language=en`,
    { token: w.customer },
  );
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal(res.headers.get("content-type"), "application/pdf");
  assert.equal(
    res.headers.get("content-disposition"),
    'attachment; filename="invoice_Norte_2026-01_en.pdf"',
  );
  const text = (await pdfText(new Uint8Array(await res.arrayBuffer()))).lines.join("\n");
  for (const amount of ["72.15", "50.00", "19.54", "141.69", "929.74"]) {
    assert.ok(admin.includes(amount), `admin report lacks ${amount}`);
    assert.ok(text.includes(`$${amount} MXN`), `invoice lacks ${amount}:\n${text}`);
  }
  const es = await call(
    w.t,
    "GET",
    `/customer/installations/${w.stationId}/invoice?month=2026-01&language=es`,
    { token: w.customer },
  );
  assert.equal(
    es.headers.get("content-disposition"),
    'attachment; filename="invoice_Norte_2026-01_es.pdf"',
  );
  await es.body?.cancel();

  // A month without a finalized bill comes back to the page with the download error.
  const none = await call(
    w.t,
    "GET",
    `/customer/installations/${w.stationId}/invoice?month=2026-02&language=en`,
    { token: w.customer },
  );
  assert.equal(none.status, 302);
  const back = none.headers.get("location")!;
  assert.equal(back, `/customer/installations/${w.stationId}?month=2026-02&invoice_error=1`);
  const page = await html(await call(w.t, "GET", back, { token: w.customer }));
  assert.ok(page.includes("Error downloading report. Please try again."));

  // Bad input is refused in the asker's language and nothing is drawn.
  for (const q of ["month=2026-01&language=de", "month=2019-01&language=en", "language=en"]) {
    const bad = await call(w.t, "GET", `/customer/installations/${w.stationId}/invoice?${q}`, {
      token: w.customer,
    });
    assert.equal(bad.status, 400, q);
    await bad.body?.cancel();
  }
});

test("the unit page shows live phases, uptime and the recent disconnections", async (w) => {
  const t0 = Date.parse("2026-02-01T12:00:00Z");
  const svc = createStatusService(w.t.deps);
  await svc.online("SIM-A", t0);
  for (let i = 0; i < 7; i++) {
    await svc.offline("SIM-A", t0 + (i * 120 + 60) * MIN, "will");
    await svc.online("SIM-A", t0 + (i * 120 + 90) * MIN);
  }
  await svc.close();
  w.t.deps.telemetry.write([{
    serial: "SIM-A",
    ts: NOW - MIN,
    values: {
      total_power: 1500,
      phase_a_power: 700,
      phase_a_voltage: 127.4,
      phase_a_current: 5.5,
      phase_b_power: 500,
      phase_c_power: 300,
      total_pf: 0.92,
    },
  }]);
  await w.t.deps.telemetry.flush();
  const page = await ownerPage(w, `/customer/installations/${w.stationId}/unit/${w.sensors[0]}`);
  assertIncludesAll(page, [
    "Depto 1",
    "Station: Norte",
    "1500.00", // current power, W
    "700.00",
    "127.40",
    "5.50",
    "Showing 5 most recent events out of 7 total",
    "Resolved",
    "SIM-A",
    "92%",
  ]);
  assert.equal((page.match(/30 min/g) ?? []).length, 5);
});

test("an owner never sees another owner's station, unit or invoice", async (w) => {
  const other = await account(w.t, "customer", { language: "en" });
  const dash = await html(await call(w.t, "GET", "/customer", { token: other.token }));
  assert.ok(!dash.includes("Norte"));
  assert.ok(dash.includes("No installations assigned to your account yet."));
  for (
    const path of [
      `/customer/installations/${w.stationId}`,
      `/customer/installations/${w.stationId}/unit/${w.sensors[0]}`,
      `/customer/installations/${w.stationId}/invoice?month=2026-01&language=en`,
    ]
  ) {
    const res = await call(w.t, "GET", path, { token: other.token });
    assert.equal(res.status, 404, path);
    const body = await html(res);
    assert.ok(!body.includes("Depto 1"), path);
  }
  const mine = await html(await call(w.t, "GET", "/customer", { token: w.customer }));
  assert.ok(mine.includes("Norte"));
  assert.ok(mine.includes(`/customer/installations/${w.stationId}`));
  const missing = await call(w.t, "GET", `/customer/installations/x/unit/y`, {
    token: w.customer,
  });
  assert.equal(missing.status, 404);
  assert.ok((await html(missing)).includes("Missing unit or installation information"));
});
