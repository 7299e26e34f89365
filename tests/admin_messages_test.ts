/**
 * The admin's messages page (issue 28): sent and failed messages with the reason, "Send again",
 * the `.eml` files of the outbox folder when there is no SMTP server, and "Send reset link".
 */
import assert from "node:assert/strict";
import { account, call, testApp } from "./_helpers.ts";
import { receiver } from "./_mail.ts";
import { simpleParser } from "mailparser";
import { Buffer } from "node:buffer";
import { createMailSender, deliverDue, loadMessageSettings } from "../services/messages/mod.ts";

Deno.test("admin messages: without SMTP the mails are .eml files, listed and opened on the page", async () => {
  const t = await testApp();
  const dir = await Deno.makeTempDir();
  try {
    const files = createMailSender(loadMessageSettings({ DATA_DIR: dir }));
    t.deps.mail = { where: files.where, folder: files.folder, kick: () => {} };
    const admin = await account(t, "admin");
    const ana = await account(t, "user", { email: "ana@test.mx" });
    // The users list's "Send reset link".
    const res = await call(t, "POST", `/admin/messages/reset-link/${ana.user.id}`, {
      token: admin.token,
      form: {},
    });
    assert.equal(res.status, 303);
    assert.match(res.headers.get("location") ?? "", /reset_sent=ana%40test\.mx/);
    await deliverDue(t.deps, { email: files });
    const [name, ...more] = [...Deno.readDirSync(`${dir}/outbox`)].map((e) => e.name);
    assert.equal(more.length, 0);
    const html = await (await call(t, "GET", "/admin/messages", { token: admin.token })).text();
    assert.match(html, /data-state="sent"/);
    assert.ok(html.includes(`${dir}/outbox/`), "where mails go");
    assert.ok(html.includes(name), "the file is listed");
    const file = await call(t, "GET", `/admin/messages/files/${encodeURIComponent(name)}`, {
      token: admin.token,
    });
    assert.equal(file.status, 200);
    const mail = await simpleParser(Buffer.from(await file.arrayBuffer()));
    assert.equal(mail.to && !Array.isArray(mail.to) ? mail.to.text : "", "ana@test.mx");
    assert.match(mail.text ?? "", /\/reset-password\?token=/);
    const outside = await call(t, "GET", "/admin/messages/files/..%2Fportal.kv", {
      token: admin.token,
    });
    assert.equal(outside.status, 404);
  } finally {
    t.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("admin messages: a refused mail shows failed with the reason; send again queues it", async () => {
  const t = await testApp();
  const r = await receiver();
  try {
    const admin = await account(t, "admin");
    const bob = await account(t, "user", { email: "bob@test.mx" });
    await call(t, "POST", `/admin/messages/reset-link/${bob.user.id}`, {
      token: admin.token,
      form: {},
    });
    r.refuse.set("bob@test.mx", 451);
    await deliverDue(t.deps, r.senders());
    let html = await (await call(t, "GET", "/admin/messages", { token: admin.token })).text();
    assert.match(html, /data-state="pending"/);
    assert.match(html, /451/);
    r.refuse.set("bob@test.mx", 550);
    const realNow = t.deps.now;
    t.deps.now = () => realNow() + 120_000; // past the first retry's wait
    await deliverDue(t.deps, r.senders());
    html = await (await call(t, "GET", "/admin/messages", { token: admin.token })).text();
    assert.match(html, /data-state="failed"/);
    assert.match(html, /550/);
    const id = /name="id" value="([^"]+)"/.exec(html)![1].replace(/&amp;/g, "&");
    const again = await call(t, "POST", "/admin/messages/resend", {
      token: admin.token,
      form: { id },
    });
    assert.equal(again.status, 303);
    html = await (await call(t, "GET", "/admin/messages", { token: admin.token })).text();
    assert.match(html, /data-state="pending"/);
    const unknown = await call(t, "POST", "/admin/messages/resend", {
      token: admin.token,
      form: { id: "nothing" },
    });
    assert.equal(unknown.status, 404);
  } finally {
    await r.stop();
    t.close();
  }
});
