/**
 * SPEI payments through Openpay (issue 12), on the real client code against local HTTP servers
 * speaking Openpay's API (the sandbox, and small servers that fail): the exact request Openpay
 * receives; a live reference answered again; 100 concurrent clicks making one charge; Openpay
 * answering 500, refusing, or timing out (a clear message, nothing changed); the webhook paying
 * once for duplicate deliveries with one `payment_received` notice each to tenant, owner and
 * admin; a success before its creation; wrong credentials (401, nothing changed); a
 * `charge.succeeded` whose fetched charge is still in progress (not paid); expiry by event and
 * by the sweep → `reference_expired` → a new reference; the summary API in currency units.
 */
import assert from "node:assert/strict";
import { call } from "./_helpers.ts";
import {
  chargePosts,
  failing,
  HOOK,
  hook,
  MERCHANT,
  pay,
  settled,
  T0,
  world,
} from "./_payment_world.ts";
import type { PaymentWorld } from "./_payment_world.ts";
import { listNotifications } from "../db/notifications.ts";
import { listEvents } from "../db/payments.ts";
import { amountDue } from "../core/payment.ts";
import { isValidClabe } from "../services/payments/sandbox/clabe.ts";
import { basicAuth, reconcileCharges, webhooksIdle } from "../services/payments/mod.ts";

/** Asks for bill A's transfer reference as its tenant and answers the Openpay charge id. */
async function chargeOfA(p: PaymentWorld): Promise<string> {
  await pay(p, p.billA);
  return (await p.bill(p.billA)).openpay_charge_id!;
}

/**
 * Asks for bill A's transfer reference, has the sandbox pay it or let it expire, waits until
 * the webhook is handled and answers the charge id with bill A as it is then.
 */
async function chargeOfAAfter(p: PaymentWorld, event: "transfer" | "expiry") {
  const charge = await chargeOfA(p);
  const sent = event === "transfer"
    ? p.sandbox.simulateTransfer(charge)
    : p.sandbox.simulateExpiry(charge);
  assert.ok(sent, `the sandbox sent no ${event} event`);
  await settled(p);
  return { charge, bill: await p.bill(p.billA) };
}

async function notices(p: PaymentWorld, userId: number, type: string) {
  return (await listNotifications(p.w.t.deps.kv, userId, "all", 100)).filter((n) =>
    n.type === type
  );
}

Deno.test("pay: the exact charge request, the bill's SPEI fields, a live reference answered again", () =>
  world(async (p) => {
    const before = await p.bill(p.billA);
    const res = await pay(p, p.billA);
    assert.equal(res.status, 200);
    const body = await res.json();
    const [req] = chargePosts(p);
    assert.equal(req.path, `/v1/${MERCHANT}/charges`);
    assert.equal(req.authorization, "Basic c2tfdGVzdDo="); // base64("sk_test:")
    const sent = req.body as Record<string, unknown>;
    assert.deepEqual(Object.keys(sent).sort(), [
      "amount",
      "customer",
      "description",
      "due_date",
      "method",
      "order_id",
    ]);
    assert.equal(sent.method, "bank_account");
    assert.equal(sent.amount, amountDue(before) / 100);
    assert.equal(sent.order_id, `bill-${p.billA}-1`);
    assert.equal(sent.due_date, "2026-12-08T15:00:00Z"); // 5 calendar days ahead
    assert.match(String(sent.description), /Depto 1/);
    assert.match(String(sent.description), /2026-11/);
    assert.deepEqual(sent.customer, {
      name: "Ana",
      last_name: "María López",
      email: p.w.tenantUsers[0].email,
    });

    const d = body.spei_details;
    assert.ok(isValidClabe(d.clabe), d.clabe);
    assert.match(d.reference, /^\d{20}$/);
    assert.equal(d.bank, "BBVA Bancomer");
    assert.equal(d.amount, amountDue(before) / 100);
    assert.equal(Date.parse(d.expiry_date), Date.parse("2026-12-08T15:00:00Z"));
    const charge = [...p.sandbox.charges.values()][0];
    // The local sandbox has no dashboard (and sits on loopback): the portal serves the receipt.
    assert.equal(d.pdf_receipt_url, `http://localhost/user/payment/receipt?bill=${p.billA}`);
    assert.equal(body.status, "awaiting_spei_transfer");

    const after = await p.bill(p.billA);
    assert.equal(after.payment_status, "awaiting_spei_transfer");
    assert.equal(after.openpay_charge_id, charge.id);
    assert.equal(after.spei_clabe, d.clabe);
    assert.equal(after.spei_reference, d.reference);
    assert.equal(after.payment_history.at(-1)?.cause, "reference_created");

    const again = await (await pay(p, p.billA)).json();
    assert.deepEqual(again.spei_details, d);
    assert.equal(chargePosts(p).length, 1);

    // Another tenant's bill is not theirs: not found, nothing charged.
    assert.equal((await pay(p, p.billA, 1)).status, 404);
    assert.equal(
      (await call(p.w.t, "GET", `/api/tenant-payments/${p.billA}`, {
        token: p.w.tenantTokens[1],
      })).status,
      404,
    );
    assert.equal(chargePosts(p).length, 1);

    const sum = await (await call(p.w.t, "GET", "/api/tenant-payments/summary", {
      token: p.w.tenantTokens[0],
    })).json();
    assert.deepEqual(sum.awaiting_spei_payments.map((x: { id: number }) => x.id), [p.billA]);
    assert.equal(sum.total_awaiting_spei_amount, amountDue(before) / 100);
    assert.equal(sum.pending_payments.length, 0);
  }));

Deno.test("pay: a hundred concurrent clicks make exactly one charge", () =>
  world(async (p) => {
    const answers = await Promise.all(Array.from({ length: 100 }, () => pay(p, p.billA)));
    const bodies = await Promise.all(answers.map((r) => r.json()));
    assert.deepEqual([...new Set(answers.map((r) => r.status))], [200]);
    assert.equal(new Set(bodies.map((b) => b.spei_details.clabe)).size, 1);
    assert.equal(chargePosts(p).length, 1);
    assert.equal(
      (await p.bill(p.billA)).payment_history.filter((c) => c.cause === "reference_created")
        .length,
      1,
    );
  }));

Deno.test("pay: Openpay answering 500, refusing or timing out gives a clear message and changes nothing", () =>
  world(async (p) => {
    const before = await p.bill(p.billA);
    const cases = [
      {
        server: failing(() =>
          Response.json({
            category: "gateway",
            error_code: 1000,
            description: "Internal server error",
            http_code: 500,
            request_id: "r-1",
          }, { status: 500 })
        ),
        message: "El servicio de pagos no responde en este momento",
      },
      {
        server: failing(() =>
          Response.json({
            category: "request",
            error_code: 1001,
            description: "amount is invalid",
            http_code: 400,
            request_id: "r-2",
          }, { status: 400 })
        ),
        message: "El servicio de pagos rechazó la referencia",
      },
      {
        server: failing(() => Response.json({}), 1500),
        message: "El servicio de pagos no responde en este momento",
      },
    ];
    for (const c of cases) {
      p.pointAt(c.server.url, { timeoutMs: 300 });
      const res = await pay(p, p.billA);
      assert.equal(res.status, 503);
      assert.match((await res.json()).message, new RegExp(c.message));
      assert.deepEqual(await p.bill(p.billA), before);
      // The page answers with the form and the message, in the tenant's language.
      const page = await call(p.w.t, "POST", "/user/payment/generate", {
        token: p.w.tenantTokens[0],
        form: { bill: String(p.billA) },
      });
      assert.equal(page.status, 503);
      assert.match(await page.text(), new RegExp(c.message));
      assert.deepEqual(await p.bill(p.billA), before);
      await c.server.stop();
    }
    // Openpay back: the same bill gets its reference.
    p.pointAt(p.sandbox.url);
    assert.equal((await pay(p, p.billA)).status, 200);
  }));

Deno.test("webhook: the transfer pays once, duplicates ignored, one notice each", () =>
  world(async (p) => {
    const { charge, bill: paid } = await chargeOfAAfter(p, "transfer");
    assert.equal(paid.payment_status, "paid");
    assert.match(paid.payment_date ?? "", /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(paid.payment_history.at(-1)?.cause, "processor_event");
    assert.equal(paid.payment_history.at(-1)?.note, "charge.succeeded");

    // Openpay delivers the same event again (twice): answered 200, nothing more happens.
    const tx = p.sandbox.charges.get(charge)!;
    for (let i = 0; i < 2; i++) {
      const res = await hook(p, { type: "charge.succeeded", event_date: "x", transaction: tx });
      assert.equal(res.status, 200);
      assert.equal((await res.json()).received, "duplicate");
    }
    await webhooksIdle();
    assert.deepEqual(await p.bill(p.billA), paid);
    for (const id of [p.w.tenants[0], p.w.owner!.id, p.w.adminUser.id]) {
      assert.equal((await notices(p, id, "payment_received")).length, 1, `user ${id}`);
    }
    assert.equal((await notices(p, p.w.tenants[1], "payment_received")).length, 0);

    // Tenant, owner and admin see it paid.
    const sum = await (await call(p.w.t, "GET", "/api/tenant-payments/summary", {
      token: p.w.tenantTokens[0],
    })).json();
    assert.equal(sum.awaiting_spei_payments.length, 0);
    const one = await (await call(p.w.t, "GET", `/api/tenant-payments/${p.billA}`, {
      token: p.w.tenantTokens[0],
    })).json();
    assert.equal(one.status, "paid");
  }));

Deno.test("webhook: a success delivered before its creation still ends paid", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null); // deliveries are posted by hand, out of order
    const charge = await chargeOfA(p);
    p.sandbox.simulateTransfer(charge);
    const tx = p.sandbox.charges.get(charge)!;
    assert.equal((await hook(p, { type: "charge.succeeded", transaction: tx })).status, 200);
    await webhooksIdle();
    assert.equal(
      (await hook(p, { type: "charge.created", transaction: { ...tx, status: "in_progress" } }))
        .status,
      200,
    );
    await webhooksIdle();
    const b = await p.bill(p.billA);
    assert.equal(b.payment_status, "paid");
    assert.equal((await notices(p, p.w.tenants[0], "payment_received")).length, 1);
  }));

Deno.test("webhook: wrong credentials are refused with 401 and change nothing", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null);
    const charge = await chargeOfA(p);
    p.sandbox.simulateTransfer(charge);
    const before = await p.bill(p.billA);
    const tx = p.sandbox.charges.get(charge)!;
    for (
      const auth of [
        basicAuth(HOOK.user, "wrong-password-1"),
        basicAuth("someone", HOOK.password),
        `${basicAuth(HOOK.user, HOOK.password)}x`,
        "",
      ]
    ) {
      const res = await hook(p, { type: "charge.succeeded", transaction: tx }, auth);
      assert.equal(res.status, 401);
      await res.body?.cancel();
    }
    await webhooksIdle();
    assert.deepEqual(await p.bill(p.billA), before);
    assert.deepEqual(await listEvents(p.w.t.deps.kv), []);
    // The verification event is answered and its code kept for the admin.
    const v = await hook(p, { type: "verification", verification_code: "3vWQ1x6I", id: "w1" });
    assert.equal(v.status, 200);
    const page = await call(p.w.t, "GET", "/admin/payments", { token: p.w.admin });
    assert.match(await page.text(), /3vWQ1x6I/);
  }));

Deno.test("webhook: charge.succeeded whose fetched charge is still in progress does not pay", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null);
    const charge = await chargeOfA(p);
    const tx = { ...p.sandbox.charges.get(charge)!, status: "completed" }; // the event lies
    assert.equal((await hook(p, { type: "charge.succeeded", transaction: tx })).status, 200);
    await webhooksIdle();
    const b = await p.bill(p.billA);
    assert.equal(b.payment_status, "awaiting_spei_transfer");
    assert.ok(p.sandbox.requests.some((r) => r.method === "GET" && r.path.endsWith(charge)));
    assert.equal((await notices(p, p.w.tenants[0], "payment_received")).length, 0);
  }));

Deno.test("expiry: an expired charge becomes reference_expired, then a new reference is made", () =>
  world(async (p) => {
    const { charge: first, bill: expired } = await chargeOfAAfter(p, "expiry");
    assert.equal(expired.payment_status, "reference_expired");
    const res = await pay(p, p.billA);
    assert.equal(res.status, 200);
    const renewed = await p.bill(p.billA);
    assert.equal(renewed.payment_status, "awaiting_spei_transfer");
    assert.notEqual(renewed.openpay_charge_id, first);
    assert.equal(
      (chargePosts(p).at(-1)!.body as { order_id: string }).order_id,
      `bill-${p.billA}-2`,
    );

    // The sweep: past its expiry (no event at all), the reference expires too.
    p.sandbox.setWebhook(null);
    p.w.clock.now = T0 + 6 * 24 * 3_600_000;
    const r = await reconcileCharges(p.w.t.deps);
    assert.equal(r.expired, 1);
    const swept = await p.bill(p.billA);
    assert.equal(swept.payment_status, "reference_expired");
    assert.equal(swept.payment_history.at(-1)?.cause, "reference_expired");
    assert.equal(swept.payment_history.at(-1)?.note, "sweep");
  }));

Deno.test("webhook: a charge of the wrong amount or unknown to Openpay is flagged, not paid", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null);
    // A charge naming the bill's order but for less than it owes, then "paid".
    const res = await fetch(`${p.sandbox.url}/v1/${MERCHANT}/charges`, {
      method: "POST",
      headers: { authorization: basicAuth("sk_test"), "content-type": "application/json" },
      body: JSON.stringify({
        method: "bank_account",
        amount: 1,
        description: "short",
        order_id: `bill-${p.billA}-7`,
      }),
    });
    const short = await res.json();
    p.sandbox.simulateTransfer(short.id);
    await hook(p, { type: "charge.succeeded", transaction: { id: short.id } });
    await hook(p, { type: "charge.succeeded", transaction: { id: "trnotknown000000000" } });
    await webhooksIdle();
    assert.equal((await p.bill(p.billA)).payment_status, "pending");
    const page = await (await call(p.w.t, "GET", "/admin/payments", { token: p.w.admin })).text();
    assert.match(page, /Monto incorrecto|Wrong amount/);
    assert.match(page, /Cargo desconocido|Unknown charge/);
    assert.match(page, /trnotknown000000000/);
  }));
