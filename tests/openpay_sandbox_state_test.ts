/**
 * The local Openpay sandbox keeps its state in the data folder: a restarted sandbox (the
 * portal's own, or `deno task openpay-sandbox`) still knows its merchant, key and charges,
 * answers them and lets them be paid; the file is replaced whole (no temporary file left); and
 * `deno task openpay-sandbox pay <charge id>` finds the portal's running sandbox by that state.
 */
import assert from "node:assert/strict";
import {
  basicAuth,
  openpayClient,
  startLocalOpenpay,
  startOpenpaySandbox,
} from "../services/payments/mod.ts";
import { readSandboxState, sandboxStateFile } from "../services/payments/sandbox/state.ts";
import type { OpenpaySettings } from "../services/platform/config.ts";

const charge = {
  method: "bank_account" as const,
  amount: 123.45,
  description: "Depto 1 · 2026-11",
  order_id: "bill-1-1",
  due_date: "2026-12-08T15:00:00Z",
  customer: { name: "Ana", last_name: "López", email: "ana@test.mx" },
};

const settingsOf = (url: string, merchantId: string, privateKey: string): OpenpaySettings => ({
  merchantId,
  privateKey,
  production: false,
  apiUrl: url,
  webhookUser: null,
  webhookPassword: null,
});

Deno.test("sandbox state: a restarted sandbox knows its charges, pays them and keeps the payment", async () => {
  const dir = await Deno.makeTempDir();
  const stateFile = sandboxStateFile(dir);
  try {
    const first = await startOpenpaySandbox({
      merchantId: "mstate",
      privateKey: "sk_s",
      stateFile,
    });
    const made = await openpayClient(settingsOf(first.url, "mstate", "sk_s")).createCharge(charge);
    await first.stop();
    assert.deepEqual(
      [...Deno.readDirSync(dir)].map((e) => e.name),
      ["openpay_sandbox.json"],
      "no temporary file left",
    );

    const second = await startOpenpaySandbox({
      merchantId: "mstate",
      privateKey: "sk_s",
      stateFile,
    });
    const client = openpayClient(settingsOf(second.url, "mstate", "sk_s"));
    const known = await client.getCharge(made.id);
    assert.equal(known.status, "in_progress");
    assert.equal(known.payment_method?.clabe, made.payment_method?.clabe);
    // Its order id stays used: Openpay would refuse it again.
    await assert.rejects(
      client.createCharge(charge),
      (e: Error & { status?: number }) => e.status === 409,
    );
    const paid = await fetch(`${second.url}/v1/mstate/charges/${made.id}/simulate-transfer`, {
      method: "POST",
      headers: { authorization: basicAuth("sk_s") },
      body: "{}",
    });
    assert.equal(paid.status, 200);
    await paid.body?.cancel();
    await second.stop();
    assert.equal(
      (await readSandboxState(stateFile))?.charges.find((c) => c.id === made.id)?.status,
      "completed",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sandbox state: the portal's own sandbox keeps its merchant and key, and `pay` finds it", async () => {
  const dir = await Deno.makeTempDir();
  const none: OpenpaySettings = settingsOf("", "", "");
  const blank = { ...none, merchantId: null, privateKey: null };
  try {
    const a = await startLocalOpenpay(blank, 1, dir);
    const made = await openpayClient(a.settings).createCharge(charge);
    await a.sandbox.stop();

    const b = await startLocalOpenpay(blank, 1, dir);
    try {
      assert.equal(b.settings.merchantId, a.settings.merchantId);
      assert.equal(b.settings.privateKey, a.settings.privateKey);
      assert.equal((await openpayClient(b.settings).getCharge(made.id)).status, "in_progress");

      // The README's command, with nothing but the data folder.
      const env: Record<string, string> = { ...Deno.env.toObject(), DATA_DIR: dir };
      for (const k of ["OPENPAY_API_URL", "OPENPAY_MERCHANT_ID", "OPENPAY_PRIVATE_KEY"]) {
        delete env[k];
      }
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "scripts/openpay_sandbox.ts", "pay", made.id],
        env,
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, text);
      assert.match(text, new RegExp(`charge ${made.id} paid \\(123.45 MXN\\)`));
      assert.equal((await openpayClient(b.settings).getCharge(made.id)).status, "completed");
    } finally {
      await b.sandbox.stop();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
