/**
 * The outbox's worker (issue 28). Events written with the changes that cause them become one
 * delivery per recipient and channel (db/outbox.ts: created only when absent); due deliveries
 * are claimed with a KV check and a lease, worded in the recipient's language, handed to their
 * channel and marked sent, pending again after a backoff (1, 2, 4… minutes), or failed with the
 * reason. A permanent SMTP refusal marks the address undeliverable.
 *
 * Once, and what it costs: a claim is one atomic commit, so two processes never hold the same
 * delivery; the sent mark is the first write after the channel accepted the message. A process
 * killed in between (the only window, the time of one commit) leaves a claim whose lease ends,
 * and the message is sent again: delivery is at least once, never lost. Every attempt of a
 * delivery carries the same Message-ID, so mail clients show one message.
 */
import { recipientsOf } from "./recipients.ts";
import type { Deps } from "../deps.ts";
import {
  type Channel,
  MAX_ATTEMPTS,
  retryDelayMs,
  type SendOutcome,
  wants,
} from "../../core/messages.ts";
import { mailHtml, mailText } from "../../core/messages_render.ts";
import {
  claimDue,
  type Claimed,
  expandEvent,
  finishClaim,
  markUndeliverable,
  pendingEvents,
  undeliverable,
} from "../../db/outbox.ts";
import { getMessagePrefs } from "../../db/message_prefs.ts";
import { getUser, type StoredUser } from "../../db/users.ts";
import type { MailSender } from "./mail.ts";
import { renderDelivery, type Rendered } from "./render.ts";
import type { WhatsAppSender } from "./whatsapp.ts";
import { queueFailedDigest } from "./digest.ts";
import { queueOwnerSummaries } from "./owner_summary.ts";
import { clockOf } from "../platform/clock.ts";
import { runAsSingleton } from "../platform/singleton.ts";

/** The channels a worker sends through (a channel left out is not configured). */
export interface Senders {
  email: MailSender;
  whatsapp?: WhatsAppSender | null;
}

/** How long a claim lasts: longer than any send may take (SMTP gives up after 30 s). */
export const LEASE_MS = 120_000;

/** How often the one process holding its lease asks whether today's failed digest is due. */
const DIGEST_EVERY_MS = 10 * 60_000;

/** What one pass did. */
export interface PassResult {
  sent: number;
  retried: number;
  failed: number;
  skipped: number;
}

/** Turns waiting events into deliveries: recipients as they are now, with their choices. */
export async function expandEvents(deps: Deps, senders: Senders): Promise<number> {
  let n = 0;
  for (;;) {
    const events = await pendingEvents(deps.kv, 100);
    if (events.length === 0) return n;
    for (const e of events) {
      const ids = await recipientsOf(deps.kv, e.value.to);
      const recipients: { user_id: number; channel: Channel }[] = [];
      for (const id of ids) {
        const prefs = await getMessagePrefs(deps.kv, id);
        if (!wants(prefs, e.value.kind)) continue;
        recipients.push({ user_id: id, channel: "email" });
        if (senders.whatsapp && prefs?.whatsapp) {
          recipients.push({ user_id: id, channel: "whatsapp" });
        }
      }
      if (await expandEvent(deps.kv, e, recipients, deps.now())) n++;
    }
  }
}

/** A Message-ID that every attempt of a delivery shares. */
async function messageIdOf(deps: Deps, id: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(id));
  const hex = [...new Uint8Array(hash)].slice(0, 16)
    .map((b) => b.toString(16).padStart(2, "0")).join("");
  return `<${hex}@${deps.config.publicUrl?.hostname ?? "portal.localhost"}>`;
}

type Finish = Parameters<typeof finishClaim>[2];

/** Delivers one claimed message and answers how its claim ends. */
async function attempt(deps: Deps, senders: Senders, c: Claimed): Promise<Finish> {
  const d = c.delivery;
  const user = await getUser(deps.kv, d.user_id);
  if (!user || !user.is_active) return { state: "skipped", error: "account gone or inactive" };
  if (!wants(await getMessagePrefs(deps.kv, user.id), d.kind)) {
    return { state: "skipped", error: "turned off by the recipient" };
  }
  const address = d.channel === "email" ? String(d.params.address ?? user.email) : user.phone;
  if (d.channel === "email") {
    const refused = await undeliverable(deps.kv, address);
    if (refused) return { state: "failed", error: `address not deliverable: ${refused.reason}` };
  }
  let rendered: Rendered | null;
  try {
    rendered = await renderDelivery(deps, d, user);
  } catch (e) {
    return retryOrFail(deps, d.attempts, { ok: false, permanent: false, reason: String(e) });
  }
  if (!rendered) return { state: "skipped", error: "its subject no longer exists" };
  const outcome = await send(deps, senders, d.channel, c, user, address, rendered);
  if (outcome.ok) return { state: "sent", error: null, sent_at: deps.now() };
  if (outcome.permanent && d.channel === "email") {
    await markUndeliverable(deps.kv, address, outcome.reason, deps.now());
  }
  return retryOrFail(deps, d.attempts, outcome);
}

function retryOrFail(
  deps: Deps,
  attempts: number,
  outcome: Extract<SendOutcome, { ok: false }>,
): Finish {
  if (outcome.permanent || attempts >= MAX_ATTEMPTS) {
    return { state: "failed", error: outcome.reason };
  }
  const wait = Math.max(retryDelayMs(attempts), outcome.retryAfterMs ?? 0);
  return { state: "pending", error: outcome.reason, next_at: deps.now() + wait };
}

async function send(
  deps: Deps,
  senders: Senders,
  channel: Channel,
  c: Claimed,
  user: StoredUser,
  address: string,
  r: Rendered,
): Promise<SendOutcome> {
  if (channel === "whatsapp") {
    if (!senders.whatsapp) return { ok: false, permanent: true, reason: "WhatsApp not configured" };
    return await senders.whatsapp.send({
      to: address,
      template: `portal_${c.delivery.kind}`,
      language: user.language,
      values: r.values,
    });
  }
  return await senders.email.send({
    to: address,
    subject: r.content.subject,
    text: mailText(r.content),
    html: mailHtml(r.content, user.language),
    messageId: await messageIdOf(deps, c.delivery.id),
    deliveryId: c.delivery.id,
    attachments: r.attachments,
  });
}

/** One pass: events expanded, then every due delivery attempted (a few at a time). */
export async function deliverDue(deps: Deps, senders: Senders): Promise<PassResult> {
  await expandEvents(deps, senders);
  const result: PassResult = { sent: 0, retried: 0, failed: 0, skipped: 0 };
  for (;;) {
    const claimed = await claimDue(deps.kv, deps.now(), LEASE_MS, 10);
    if (claimed.length === 0) return result;
    for (const c of claimed) {
      const fin = await attempt(deps, senders, c);
      if (!await finishClaim(deps.kv, c, fin, deps.now())) continue;
      if (fin.state === "sent") result.sent++;
      else if (fin.state === "pending") result.retried++;
      else if (fin.state === "failed") result.failed++;
      else result.skipped++;
      if (fin.state !== "sent") {
        deps.log.log(fin.state === "failed" ? "warn" : "info", "message not sent", {
          id: c.delivery.id,
          state: fin.state,
          error: fin.error,
        });
      }
    }
  }
}

/** The worker running in the portal: a pass every `intervalMs`, and at once when kicked. */
export function startMessageWorker(
  deps: Deps,
  senders: Senders,
  intervalMs = 10_000,
): { kick(): void; stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let again = false;
  let summaryMonth = "";
  // The admins' digest of failed messages is queued by one process (the `failed_digest` lease)
  // every ten minutes; once a day, by the day's key (digest.ts), if asked more often. In a new
  // month the same run queues the owners' payment summaries, once per owner and month by their key.
  const digest = runAsSingleton(deps, "failed_digest", DIGEST_EVERY_MS, async () => {
    await queueFailedDigest(deps);
    const month = clockOf(deps).todayText().slice(0, 7);
    if (month === summaryMonth) return;
    await queueOwnerSummaries(deps);
    summaryMonth = month;
  }, { atStart: true });
  const pass = () => {
    if (running) {
      again = true;
      return;
    }
    running = deliverDue(deps, senders).then(
      () => {},
      (e) => deps.log.log("error", "message delivery failed", { error: String(e) }),
    ).finally(() => {
      running = null;
      if (again) {
        again = false;
        pass();
      }
    });
  };
  pass();
  const timer = setInterval(pass, intervalMs);
  return {
    kick: pass,
    async stop() {
      clearInterval(timer);
      again = false;
      await digest.stop();
      await running;
      senders.email.close();
    },
  };
}
