/**
 * Payment faults that cost money (issue 25), on the real client code against the local sandbox
 * and small failing servers: a charge whose answer was lost (a timeout, a process that ended)
 * is found by its order id and shown, never a bill left unpayable; a timeout does not claim
 * that nothing was charged; Openpay's own error text never reaches a tenant; cancel, fail and
 * expiry events act only on what Openpay answers; an early `charge.succeeded` is retried; an
 * event left half-handled is taken again; a duplicate charge is flagged once and closed; a
 * payment recorded by hand is refused while a live reference exists; reconciliation runs at
 * start-up on a schedule kept in the store; `/admin/payments` is paged.
 */
import assert from "node:assert/strict";
import { call } from "./_helpers.ts";
import {
  chargePosts,
  failing,
  hook,
  MERCHANT,
  pay,
  type PaymentWorld,
  T0,
  world,
} from "./_payment_world.ts";
import { claimEvent, listFlags, openChargeIds, putCharge } from "../db/payments.ts";
import {
  basicAuth,
  reconcileCharges,
  type ReconcileResult,
  startReconciliation,
  webhooksIdle,
} from "../services/payments/mod.ts";

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

/** Makes a charge at the sandbox as a request whose answer never came back would have. */
async function sandboxCharge(p: PaymentWorld, orderId: string, amount: number) {
  const res = await fetch(`${p.sandbox.url}/v1/${MERCHANT}/charges`, {
    method: "POST",
    headers: { authorization: basicAuth("sk_test"), "content-type": "application/json" },
    body: JSON.stringify({
      method: "bank_account",
      amount,
      description: "lost answer",
      order_id: orderId,
      due_date: new Date(T0 + 5 * DAY).toISOString(),
    }),
  });
  assert.equal(res.status, 200);
  return await res.json() as { id: string; payment_method: { name: string; clabe: string } };
}

const units = async (p: PaymentWorld, id: number) => (await p.bill(id)).total_cost / 100;

Deno.test("lost answer: Openpay made the charge but answered after the timeout; the tenant gets that charge", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null);
    // Timeouts long enough for the charge lookup to answer on a busy machine.
    p.pointAt(p.sandbox.url, { timeoutMs: 1_500 });
    p.sandbox.delayCreates(4_000);
    const res = await pay(p, p.billA);
    const body = await res.json();
    assert.equal(res.status, 200, body.message);
    assert.equal(p.sandbox.charges.size, 1);
    const [charge] = p.sandbox.charges.values() as Iterable<Record<string, unknown>>;
    assert.equal(body.spei_details.reference, (charge.payment_method as { name: string }).name);
    const bill = await p.bill(p.billA);
    assert.equal(bill.payment_status, "awaiting_spei_transfer");
    assert.equal(bill.openpay_charge_id, charge.id);
    // Asked again: the same reference, no other charge.
    p.sandbox.delayCreates(0);
    assert.equal(
      (await (await pay(p, p.billA)).json()).spei_details.reference,
      bill.spei_reference,
    );
    assert.equal(p.sandbox.charges.size, 1);
    // Paid: the bill is paid by the charge whose answer was lost.
    p.sandbox.simulateTransfer(String(charge.id));
    assert.equal((await reconcileCharges(p.w.t.deps)).paid, 1);
    assert.equal((await p.bill(p.billA)).payment_status, "paid");
  }));

Deno.test("lost answer: a charge made before the process ended is adopted, a spent order id passed over", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null);
    // The process ended after Openpay made bill-A-1 and before keeping it.
    const lost = await sandboxCharge(p, `bill-${p.billA}-1`, await units(p, p.billA));
    const res = await pay(p, p.billA);
    assert.equal(res.status, 200);
    assert.equal((await res.json()).spei_details.clabe, lost.payment_method.clabe);
    assert.equal((await p.bill(p.billA)).openpay_charge_id, lost.id);
    assert.equal(p.sandbox.charges.size, 1);

    // Bill B's lost charge has expired at Openpay: its order id is spent, the next one is used.
    const spent = await sandboxCharge(p, `bill-${p.billB}-1`, await units(p, p.billB));
    p.sandbox.simulateExpiry(spent.id);
    const b = await pay(p, p.billB, 1);
    assert.equal(b.status, 200);
    const orders = chargePosts(p).map((r) => (r.body as { order_id: string }).order_id);
    assert.equal(orders.at(-1), `bill-${p.billB}-2`);
    const billB = await p.bill(p.billB);
    assert.equal(billB.payment_status, "awaiting_spei_transfer");
    assert.notEqual(billB.openpay_charge_id, spent.id);
  }));

Deno.test("pay: a timeout does not tell the tenant that nothing was charged; Openpay's own text is never shown", () =>
  world(async (p) => {
    const secret = "Openpay internal detail 7f3a";
    const openpayError = (status: number) => () =>
      Response.json({
        category: "request",
        error_code: status === 500 ? 1000 : 1001,
        description: secret,
        http_code: status,
        request_id: "r-9",
      }, { status });
    const cases = [
      { server: failing(() => Response.json({}), 1_000), no: /No se realizó ningún cargo/ },
      { server: failing(openpayError(400)), no: null },
      { server: failing(openpayError(500)), no: /No se realizó ningún cargo/ },
    ];
    for (const c of cases) {
      p.pointAt(c.server.url, { timeoutMs: 300 });
      const res = await pay(p, p.billA);
      assert.equal(res.status, 503);
      const text = await res.text();
      const page = await (await call(p.w.t, "POST", "/user/payment/generate", {
        token: p.w.tenantTokens[0],
        form: { bill: String(p.billA) },
      })).text();
      for (const shown of [text, page]) {
        assert.doesNotMatch(shown, new RegExp(secret));
        assert.doesNotMatch(shown, /Openpay answered|no answer within/);
        if (c.no) assert.doesNotMatch(shown, c.no);
      }
      assert.match(text, /El servicio de pagos/);
      await c.server.stop();
    }
  }));

Deno.test("webhook: cancel, fail and expiry events are checked with Openpay; a forged one changes nothing", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null);
    await pay(p, p.billA);
    const before = await p.bill(p.billA);
    const id = before.openpay_charge_id!;
    for (const type of ["charge.cancelled", "transaction.expired", "charge.failed"]) {
      const res = await hook(p, { type, transaction: { id, status: "cancelled" } });
      assert.equal(res.status, 200);
      await res.body?.cancel();
    }
    await webhooksIdle();
    assert.deepEqual(await p.bill(p.billA), before);
    const gets = p.sandbox.requests.filter((r) => r.method === "GET" && r.path.endsWith(id));
    assert.ok(gets.length >= 3, `Openpay asked ${gets.length} times`);
    // A real expiry still ends the reference.
    p.sandbox.simulateExpiry(id);
    const res = await hook(p, { type: "charge.cancelled", transaction: { id } });
    await res.body?.cancel();
    await webhooksIdle();
    assert.equal((await p.bill(p.billA)).payment_status, "reference_expired");
  }));

Deno.test("webhook: a charge.succeeded delivered before Openpay shows the charge paid is retried", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null);
    await pay(p, p.billA);
    const id = (await p.bill(p.billA)).openpay_charge_id!;
    const res = await hook(p, { type: "charge.succeeded", transaction: { id } });
    assert.equal((await res.json()).received, "accepted");
    await new Promise((r) => setTimeout(r, 30));
    p.sandbox.simulateTransfer(id); // Openpay catches up; no second event is sent
    await webhooksIdle();
    const b = await p.bill(p.billA);
    assert.equal(b.payment_status, "paid");
    assert.equal(b.payment_history.at(-1)?.note, "charge.succeeded");
  }));

Deno.test("webhook: an event claimed by a process that ended is handled on its next delivery", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null);
    await pay(p, p.billA);
    const id = (await p.bill(p.billA)).openpay_charge_id!;
    p.sandbox.simulateTransfer(id);
    // The earlier process claimed the event and ended before handling it.
    await claimEvent(p.w.t.deps.kv, {
      type: "charge.succeeded",
      transaction_id: id,
      received_at: new Date(T0).toISOString(),
      outcome: "received",
      bill_id: null,
    });
    const deliver = async () => {
      const res = await hook(p, { type: "charge.succeeded", transaction: { id } });
      const { received } = await res.json();
      await webhooksIdle();
      return received;
    };
    p.w.clock.now = T0 + MIN; // still its claimer's: maybe being handled
    assert.equal(await deliver(), "duplicate");
    p.w.clock.now = T0 + 10 * MIN; // Openpay's next retry, long after
    assert.equal(await deliver(), "accepted");
    assert.equal((await p.bill(p.billA)).payment_status, "paid");
    assert.equal(await deliver(), "duplicate");
  }));

Deno.test("duplicate: a charge paid after the bill was paid another way is flagged once and closed", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null);
    await pay(p, p.billA);
    const id = (await p.bill(p.billA)).openpay_charge_id!;
    // Past the reference's validity (not yet swept) the admin records a cash payment...
    p.w.clock.now = T0 + 6 * DAY;
    const cash = await call(p.w.t, "POST", `/api/bills/${p.billA}/payments`, {
      token: p.w.admin,
      json: { method: "cash", payment_date: "2026-12-09" },
    });
    assert.equal(cash.status, 200, await cash.text());
    // ...and the tenant's transfer to the old reference arrives too.
    p.sandbox.simulateTransfer(id);
    const first = await reconcileCharges(p.w.t.deps);
    assert.equal(first.checked, 1);
    const flags = await listFlags(p.w.t.deps.kv);
    assert.deepEqual(flags.map((f) => [f.reason, f.transaction_id]), [["duplicate_payment", id]]);
    assert.deepEqual(await openChargeIds(p.w.t.deps.kv), []);
    const asked = p.sandbox.requests.length;
    for (let i = 0; i < 2; i++) assert.equal((await reconcileCharges(p.w.t.deps)).checked, 0);
    assert.equal(p.sandbox.requests.length, asked, "Openpay is not asked again");
    assert.equal((await listFlags(p.w.t.deps.kv)).length, 1);
    const page = await (await call(p.w.t, "GET", "/admin/payments", { token: p.w.admin })).text();
    assert.match(page, /Pago duplicado|Duplicate payment/);
  }));

Deno.test("record payment: refused while the bill has a live SPEI reference, allowed once it expired", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null);
    await pay(p, p.billA);
    const before = await p.bill(p.billA);
    const record = (date: string) =>
      call(p.w.t, "POST", `/api/bills/${p.billA}/payments`, {
        token: p.w.admin,
        json: { method: "cash", payment_date: date },
      });
    const res = await record("2026-12-03");
    assert.equal(res.status, 409);
    assert.match((await res.json()).message, /referencia SPEI vigente|live SPEI reference/);
    assert.deepEqual(await p.bill(p.billA), before);
    p.w.clock.now = T0 + 6 * DAY;
    assert.equal((await record("2026-12-09")).status, 200);
  }));

/** Waits until `ok()` holds (at most 10 s: a loaded machine's lease ticks come late). */
async function until(ok: () => boolean, what: string) {
  for (let i = 0; i < 1_000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(ok(), what);
}

Deno.test("reconciliation: runs at start-up, then on a schedule kept in the store across restarts, in one process", () =>
  world(async (p) => {
    p.sandbox.setWebhook(null); // the transfer's webhook is lost
    await pay(p, p.billA);
    p.sandbox.simulateTransfer((await p.bill(p.billA)).openpay_charge_id!);
    const sweeps: ReconcileResult[] = [];
    const start = () =>
      startReconciliation(p.w.t.deps, { tickMs: 5, onSweep: (r) => sweeps.push(r) });
    let timer = start();
    await until(() => sweeps.length === 1, "a sweep at start-up");
    assert.equal((await p.bill(p.billA)).payment_status, "paid");
    await timer.stop();

    // Restarted four minutes later: the process holding the lease sweeps at start-up (the
    // other does not), and the next sweep is still due at five minutes (not five minutes
    // after the restart).
    p.w.clock.now = T0 + 4 * MIN;
    timer = start();
    const other = start(); // a second process on the same store
    await until(() => sweeps.length === 2, "the lease holder sweeps at start-up");
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(sweeps.length, 2, "one start-up sweep; none before it is due");
    p.w.clock.now = T0 + 5 * MIN;
    await until(() => sweeps.length === 3, "the sweep due at five minutes");
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(sweeps.length, 3, "one sweep for both processes");
    await Promise.all([timer.stop(), other.stop()]);
  }));

Deno.test("/admin/payments: the charges are paged and searched", () =>
  world(async (p) => {
    const kv = p.w.t.deps.kv;
    for (let i = 1; i <= 30; i++) {
      const at = new Date(T0 + i * MIN).toISOString();
      await putCharge(kv, {
        id: `trpage${String(i).padStart(14, "0")}`,
        bill_id: p.billA,
        order_id: `bill-${p.billA}-${i}`,
        amount: 1000,
        status: "cancelled",
        clabe: "012914002014112176",
        reference: `1000000000000000${String(i).padStart(4, "0")}`,
        bank: "BBVA Bancomer",
        expiry_date: at,
        created_at: at,
        updated_at: at,
      });
    }
    const rows = (html: string) => [...html.matchAll(/data-charge="([^"]+)"/g)].map((m) => m[1]);
    const get = async (q: string) =>
      await (await call(p.w.t, "GET", `/admin/payments${q}`, { token: p.w.admin })).text();
    const first = await get("");
    assert.equal(rows(first).length, 25);
    assert.equal(rows(first)[0], "trpage00000000000030"); // newest first
    assert.match(first, /1–25 (de|of) 30/);
    assert.match(first, /href="\/admin\/payments\?page=2"/);
    const second = await get("?page=2");
    assert.deepEqual(
      rows(second),
      [5, 4, 3, 2, 1].map((i) => `trpage${String(i).padStart(14, "0")}`),
    );
    const found = await get(`?q=bill-${p.billA}-17`);
    assert.deepEqual(rows(found), ["trpage00000000000017"]);
    assert.equal(rows(await get("?page=zz&size=7")).length, 25); // bad values fall back
  }));
