/**
 * The worker as the portal runs it (issue 28): a request that queues a mail nudges it, the mail
 * leaves without waiting for the next round, and stopping it waits for the pass under way.
 */
import assert from "node:assert/strict";
import { account, testApp } from "./_helpers.ts";
import { mailsTo, receiver } from "./_mail.ts";
import { startMessageWorker } from "../services/messages/mod.ts";

Deno.test("the portal's worker sends a queued mail at once when nudged", async () => {
  const t = await testApp();
  const r = await receiver();
  const worker = startMessageWorker(t.deps, r.senders(), 3_600_000);
  try {
    t.deps.mail = { where: "test", folder: null, kick: worker.kick };
    await account(t, "user", { email: "ana@test.mx", language: "de" });
    const res = await t.app.request("/api/auth/forgot-password", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ana@test.mx" }),
    });
    assert.equal(res.status, 200);
    for (let i = 0; i < 100 && mailsTo(r, "ana@test.mx").length === 0; i++) {
      await new Promise((ok) => setTimeout(ok, 50));
    }
    assert.deepEqual(mailsTo(r, "ana@test.mx").map((m) => m.subject), [
      "Setzen Sie Ihr Passwort zurück",
    ]);
  } finally {
    await worker.stop();
    await r.stop();
    t.close();
  }
});
