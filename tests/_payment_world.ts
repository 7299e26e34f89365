/**
 * A payments world: the billing world with an owner and November 2026 billed (finalized, due in
 * December), the app listening on 127.0.0.1 so that webhooks reach it, and the local Openpay
 * sandbox (the real client code talks to it over HTTP) delivering its webhooks there; and the
 * requests of the payment tests: a tenant's pay, a webhook post, the charge requests the sandbox
 * received, a local server that fails (`failing`).
 */
import assert from "node:assert/strict";
import { type BillingWorld, billingWorld, meter } from "./_billing_world.ts";
import { runBilling } from "../services/billing/mod.ts";
import { listUnitBills, type StoredUnitBill } from "../db/bills.ts";
import { type OpenpaySandbox, startOpenpaySandbox } from "../services/payments/mod.ts";
import type { OpenpaySettings } from "../services/platform/config.ts";
import { basicAuth, webhooksIdle } from "../services/payments/mod.ts";
import { call } from "./_helpers.ts";

/** Thursday 2026-12-03 09:00 in the business time zone (UTC−6): November has ended. */
export const T0 = Date.parse("2026-12-03T15:00:00.000Z");

/** The merchant, key and webhook credentials of the tests. */
export const MERCHANT = "mtest0123456789";
export const PRIVATE_KEY = "sk_test";
export const HOOK = { user: "openpay-hook", password: "hook-password-123" };

/** The world. */
export interface PaymentWorld {
  w: BillingWorld;
  sandbox: OpenpaySandbox;
  /** The portal's base URL. */
  url: string;
  /** Tenant A's November bill (Depto 1, Spanish, "Ana María López"). */
  billA: number;
  billB: number;
  /** Openpay settings pointing at `apiUrl` (the sandbox unless another server is given). */
  pointAt(apiUrl: string, extra?: Partial<OpenpaySettings>): void;
  bill(id: number): Promise<StoredUnitBill>;
  close(): Promise<void>;
}

/** Builds the world (see the module's text). */
export async function paymentWorld(): Promise<PaymentWorld> {
  const w = await billingWorld({
    now: T0,
    owner: true,
    admin: { email: "pay.admin@test.mx" },
    tenants: [{ language: "es", full_name: "Ana María López" }, { language: "en" }],
  });
  await meter(w.t, "SIM-A", "2026-11", 200);
  await meter(w.t, "SIM-B", "2026-11", 300.5);
  const res = await runBilling(w.t.deps, w.zoneId, "2026-11");
  assert.deepEqual(res.failures, []);
  const bills = await listUnitBills(w.t.deps.kv, w.stationId, "2026-11");
  const idOf = (unit: string) => bills.find((b) => b.unit_id === unit)!.id;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => w.t.app.fetch(req, { remoteAddr: info.remoteAddr }),
  );
  const url = `http://127.0.0.1:${server.addr.port}`;
  const sandbox = await startOpenpaySandbox({
    merchantId: MERCHANT,
    privateKey: PRIVATE_KEY,
    webhook: { url: `${url}/api/webhooks/openpay`, ...HOOK },
    retryMs: 50,
  });
  const pointAt = (apiUrl: string, extra: Partial<OpenpaySettings> = {}) => {
    w.t.deps.config.openpay = {
      merchantId: MERCHANT,
      privateKey: PRIVATE_KEY,
      production: false,
      apiUrl,
      webhookUser: HOOK.user,
      webhookPassword: HOOK.password,
      eventRetryMs: 20,
      ...extra,
    };
  };
  pointAt(sandbox.url);
  return {
    w,
    sandbox,
    url,
    billA: idOf("unit_1"),
    billB: idOf("unit_2"),
    pointAt,
    bill: async (id) => (await listUnitBills(w.t.deps.kv)).find((b) => b.id === id)!,
    close: async () => {
      await sandbox.stop();
      await server.shutdown();
      w.t.close();
    },
  };
}

/** Asks for a bill's transfer reference as its tenant (the first unless told). */
export const pay = (p: PaymentWorld, id: number, tenant = 0) =>
  call(p.w.t, "POST", `/api/tenant-payments/${id}/pay`, {
    token: p.w.tenantTokens[tenant],
    json: {},
  });

/** The charge requests the sandbox received. */
export const chargePosts = (p: PaymentWorld) =>
  p.sandbox.requests.filter((r) => r.method === "POST" && r.path.endsWith("/charges"));

/** Posts a webhook body as Openpay would (with the right credentials unless told). */
export function hook(p: PaymentWorld, body: unknown, auth = basicAuth(HOOK.user, HOOK.password)) {
  return fetch(`${p.url}/api/webhooks/openpay`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(auth ? { authorization: auth } : {}) },
    body: JSON.stringify(body),
  });
}

/** Waits until the sandbox delivered everything and the portal handled it. */
export async function settled(p: PaymentWorld) {
  await p.sandbox.idle();
  await webhooksIdle();
}

/** Runs `fn` in a fresh payments world, closed afterwards. */
export async function world(fn: (p: PaymentWorld) => Promise<void>) {
  const p = await paymentWorld();
  try {
    await fn(p);
  } finally {
    await p.close();
  }
}

/** A local server answering every call with `answer` (after `delayMs`). */
export function failing(answer: () => Response, delayMs = 0) {
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen() {} },
    async (req) => {
      await req.body?.cancel();
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      return answer();
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    stop: async () => {
      ac.abort();
      await server.finished;
    },
  };
}
