/**
 * WhatsApp through the same outbox (issue 28), against a local server speaking the Cloud API
 * (`POST /{version}/{phone-number-id}/messages`, bearer token, its error JSON, 429 rate limits):
 * a tenant who opted in gets the bill's template message once, after a rate limit; a refused
 * template fails the message with the API's reason. The live test runs with WHATSAPP_TOKEN,
 * WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_TO set.
 */
import assert from "node:assert/strict";
import { billingWorld, meter } from "./_billing_world.ts";
import { receiver } from "./_mail.ts";
import { call } from "./_helpers.ts";
import { runBilling } from "../services/billing/mod.ts";
import { createWhatsAppSender, deliverDue } from "../services/messages/mod.ts";
import { recentDeliveries } from "../db/outbox.ts";

/** A Cloud API stand-in: answers each call with the next of `answers` (then 200), records bodies. */
function cloudApi(answers: { status: number; code: number; message: string }[]) {
  const bodies: Record<string, unknown>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method !== "POST" || url.pathname !== "/v21.0/1234567890/messages") {
      return Response.json({ error: { message: "Unknown path", code: 100 } }, { status: 400 });
    }
    if (req.headers.get("authorization") !== "Bearer wa-token") {
      return Response.json({ error: { message: "Invalid OAuth access token", code: 190 } }, {
        status: 401,
      });
    }
    const body = await req.json();
    bodies.push(body);
    const next = answers.shift();
    if (next) {
      return Response.json({
        error: {
          message: next.message,
          type: "OAuthException",
          code: next.code,
          fbtrace_id: "AbCdEf",
        },
      }, { status: next.status, headers: next.status === 429 ? { "retry-after": "30" } : {} });
    }
    return Response.json({
      messaging_product: "whatsapp",
      contacts: [{ input: body.to, wa_id: body.to }],
      messages: [{ id: `wamid.${bodies.length}` }],
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/v21.0`,
    bodies,
    stop: () => server.shutdown(),
  };
}

async function world() {
  const w = await billingWorld({
    now: Date.parse("2026-12-03T15:00:00.000Z"),
    tenants: [{ language: "es", email: "ana@test.mx", phone: "+525512345678" }],
  });
  await meter(w.t, "SIM-A", "2026-11", 200);
  const optIn = await call(w.t, "POST", "/user/settings/messages", {
    token: w.tenantTokens[0],
    form: { kind: "bill_finalized", whatsapp: "on" },
  });
  assert.equal(optIn.status, 303);
  return w;
}

Deno.test("WhatsApp: the bill's template once, after a 429 rate limit", async () => {
  const w = await world();
  const r = await receiver();
  const api = cloudApi([{ status: 429, code: 130429, message: "(#130429) Rate limit hit" }]);
  try {
    const whatsapp = createWhatsAppSender({
      token: "wa-token",
      phoneNumberId: "1234567890",
      apiUrl: api.url,
    });
    const senders = { ...r.senders(), whatsapp };
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    const first = await deliverDue(w.t.deps, senders);
    assert.deepEqual(first, { sent: 1, retried: 1, failed: 0, skipped: 0 }); // mail sent
    w.clock.now += 30_000; // the backoff (60 s, past the API's Retry-After) still runs
    assert.equal((await deliverDue(w.t.deps, senders)).sent, 0);
    w.clock.now += 31_000;
    assert.equal((await deliverDue(w.t.deps, senders)).sent, 1);
    assert.equal((await deliverDue(w.t.deps, senders)).sent, 0);
    assert.equal(api.bodies.length, 2);
    assert.partialDeepStrictEqual(api.bodies[1], {
      messaging_product: "whatsapp",
      to: "525512345678",
      type: "template",
      template: { name: "portal_bill_finalized", language: { code: "es_MX" } },
    });
    const params = (api.bodies[1] as { template: { components: { parameters: unknown[] }[] } })
      .template.components[0].parameters;
    assert.deepEqual(params[0], { type: "text", text: "Depto 1" });
    assert.equal(r.mails.length, 1);
  } finally {
    await api.stop();
    await r.stop();
    w.t.close();
  }
});

Deno.test("WhatsApp: a template the API refuses fails the message with its reason", async () => {
  const w = await world();
  const r = await receiver();
  const api = cloudApi([{ status: 404, code: 132001, message: "Template name does not exist" }]);
  try {
    const whatsapp = createWhatsAppSender({
      token: "wa-token",
      phoneNumberId: "1234567890",
      apiUrl: api.url,
    });
    await runBilling(w.t.deps, w.zoneId, "2026-11");
    const pass = await deliverDue(w.t.deps, { ...r.senders(), whatsapp });
    assert.deepEqual(pass, { sent: 1, retried: 0, failed: 1, skipped: 0 });
    const failed = (await recentDeliveries(w.t.deps.kv, 5)).find((d) => d.channel === "whatsapp");
    assert.equal(failed?.state, "failed");
    assert.match(failed?.error ?? "", /132001.*Template name does not exist/);
  } finally {
    await api.stop();
    await r.stop();
    w.t.close();
  }
});

const live = ["WHATSAPP_TOKEN", "WHATSAPP_PHONE_NUMBER_ID", "WHATSAPP_TO"]
  .every((k) => Deno.env.get(k));

Deno.test({
  name: "WhatsApp live: the Cloud API accepts the hello_world template",
  ignore: !live,
  async fn() {
    const sender = createWhatsAppSender({
      token: Deno.env.get("WHATSAPP_TOKEN")!,
      phoneNumberId: Deno.env.get("WHATSAPP_PHONE_NUMBER_ID")!,
      apiUrl: Deno.env.get("WHATSAPP_API_URL") ?? "https://graph.facebook.com/v21.0",
    });
    const res = await sender.send({
      to: Deno.env.get("WHATSAPP_TO")!,
      template: "hello_world",
      language: "en",
      values: [],
    });
    assert.deepEqual(res, { ok: true });
  },
});
