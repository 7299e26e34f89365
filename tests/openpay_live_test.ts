/**
 * Against Openpay itself (its sandbox unless OPENPAY_PRODUCTION=true): runs only when
 * OPENPAY_MERCHANT_ID and OPENPAY_PRIVATE_KEY are set, and is shown as ignored otherwise. It
 * creates a small SPEI charge with the portal's client and reads it back, by id and by its
 * order id (how a charge whose answer was lost is found).
 */
import assert from "node:assert/strict";
import { loadConfig } from "../services/platform/config.ts";
import { openpayClient } from "../services/payments/mod.ts";
import { isValidClabe } from "../services/payments/sandbox/clabe.ts";

const env = Deno.env.toObject();
const configured = Boolean(env.OPENPAY_MERCHANT_ID && env.OPENPAY_PRIVATE_KEY);

Deno.test({
  name: "live Openpay: a bank_account charge is created with a CLABE and read back",
  ignore: !configured,
  fn: async () => {
    const settings = loadConfig(env).openpay;
    const client = openpayClient(settings);
    const order = `live-test-${Date.now()}`;
    const charge = await client.createCharge({
      method: "bank_account",
      amount: 10.5,
      description: "Portal live test",
      order_id: order,
      due_date: new Date(Date.now() + 86_400_000).toISOString().slice(0, 19) + "Z",
      customer: { name: "Prueba", last_name: "Portal", email: "prueba@example.com" },
    });
    assert.equal(charge.status, "in_progress");
    assert.equal(charge.order_id, order);
    assert.ok(charge.payment_method && isValidClabe(charge.payment_method.clabe));
    const again = await client.getCharge(charge.id);
    assert.equal(again.id, charge.id);
    assert.equal(again.amount, 10.5);
    const byOrder = await client.chargesOfOrder(order);
    assert.deepEqual(byOrder.map((c) => c.id), [charge.id]);
  },
});
