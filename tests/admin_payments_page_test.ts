/**
 * The admin's payments page reads as a person would (the newcomer's issue): each charge names
 * its unit, station and period (not the order id `bill-…`), the payment change's cause and the
 * processor's events and outcomes are words of the reader's language, not stored words.
 */
import assert from "node:assert/strict";
import { call } from "./_helpers.ts";
import { pay, settled, world } from "./_payment_world.ts";

/** The page's text without tags. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

Deno.test("/admin/payments: unit, station and period of each charge; causes, events and outcomes in words", () =>
  world(async (p) => {
    assert.equal((await pay(p, p.billA)).status, 200);
    const charge = (await p.bill(p.billA)).openpay_charge_id!;
    assert.ok(p.sandbox.simulateTransfer(charge));
    await settled(p);
    const html = await (await call(p.w.t, "GET", "/admin/payments", { token: p.w.admin })).text();
    const text = textOf(html);
    const row = textOf(/<tr[^>]*data-bill="\d+"[\s\S]*?<\/tr>/.exec(html)![0]);
    assert.match(row, /Depto 1 Norte · November 2026/);
    assert.doesNotMatch(row, /bill-\d+-\d+/);
    assert.match(row, /Paid/);
    assert.match(row, /Openpay notice \(Charge paid\)/);
    assert.doesNotMatch(
      text,
      /reference_created|processor_event|charge\.succeeded|charge\.created/,
    );
    assert.match(text, /Charge paid/);
    assert.match(text, /Processed/);
    assert.doesNotMatch(text, /\bhandled\b|\bignored\b/);
  }));
