/**
 * Openpay's webhook (issue 12), once its caller's Basic credentials passed (checked by the
 * route alone, routes/api/webhooks.ts): the `verification` event's code kept for the admin;
 * every other event claimed once per (`type`, `transaction.id`) and handled after the answer,
 * so the caller is answered fast; its outcome is written only once handled (a claim never
 * finished is taken again after a lease). `charge.succeeded`, `charge.cancelled`,
 * `transaction.expired` and `charge.failed` fetch the charge again from Openpay and act only
 * on what that answer says (an event may be early, or forged); other types and unknown fields
 * are ignored. A handling that could not reach Openpay, or whose charge never showed what the
 * event announced, is forgotten, so a redelivery (or the reconciliation sweep) finishes it.
 */
import type { Deps } from "../deps.ts";
import {
  addFlag,
  claimEvent,
  putVerification,
  releaseEvent,
  settleEvent,
} from "../../db/payments.ts";
import { type StoredEvent, type WebhookBody } from "../../core/payment_events.ts";
import { openpayClient, openpayConfigured, OpenpayError } from "./openpay_client.ts";
import { settleEnded, type SettleOutcome, settlePaid } from "./settle.ts";

/** What the webhook did with a body. */
export type WebhookReceipt = "verification" | "duplicate" | "accepted" | "ignored";

const work = new Set<Promise<void>>();

/** Resolves once every event accepted so far has been handled. */
export async function webhooksIdle(): Promise<void> {
  while (work.size > 0) await Promise.allSettled([...work]);
}

const HANDLED = new Set([
  "charge.succeeded",
  "charge.cancelled",
  "transaction.expired",
  "charge.failed",
  "charge.created",
]);

/**
 * Takes one webhook body (already authorized and validated, core/payment_events.ts): answers at
 * once what it will do, handling a new charge event in the background.
 */
export async function receiveWebhook(deps: Deps, body: WebhookBody): Promise<WebhookReceipt> {
  const at = new Date(deps.now()).toISOString();
  if ("verification_code" in body) {
    await putVerification(deps.kv, body.verification_code.slice(0, 100), at);
    deps.log.log("info", "openpay webhook verification code received", {});
    return "verification";
  }
  const event: StoredEvent = {
    type: body.type.slice(0, 60),
    transaction_id: body.transaction.id.slice(0, 100),
    received_at: at,
    outcome: "received",
    bill_id: null,
  };
  if (!HANDLED.has(event.type)) return "ignored";
  if (!await claimEvent(deps.kv, event)) return "duplicate";
  const job = handle(deps, event).catch((e) =>
    deps.log.log("error", "openpay event failed", { type: event.type, error: String(e) })
  );
  work.add(job);
  job.finally(() => work.delete(job));
  return "accepted";
}

/** The charge status each event announces. */
const ANNOUNCES: Readonly<Record<string, string>> = {
  "charge.succeeded": "completed",
  "charge.cancelled": "cancelled",
  "transaction.expired": "cancelled",
  "charge.failed": "failed",
};

/** First wait before an event is checked again (doubling), and how many times. */
const RETRY_MS = 2_000;
const RETRIES = 6;

let stopping = new AbortController();

/**
 * Ends the waits of events being retried (at shutdown): each is forgotten for a redelivery or
 * the reconciliation sweep. Resolves once every handling has ended.
 */
export async function webhooksStop(): Promise<void> {
  stopping.abort();
  await webhooksIdle();
  stopping = new AbortController();
}

function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", abort);
      resolve(ok);
    };
    const abort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener("abort", abort);
  });
}

/**
 * Acts on what Openpay itself says of the charge (never the event's copy): completed pays,
 * cancelled expires the reference, failed fails it, whatever the event's type. While the
 * charge does not yet show what the event announced (an early delivery, or a forged one), it
 * is asked about again after 2, 4, 8… seconds; undecided after that, the event is forgotten
 * for a redelivery or the sweep.
 */
async function handle(deps: Deps, event: StoredEvent): Promise<void> {
  const source = { event: event.type, cause: "processor_event" as const };
  const announced = ANNOUNCES[event.type];
  if (!announced) return await settleEvent(deps.kv, { ...event, outcome: "ignored" });
  const signal = stopping.signal;
  let delay = deps.config.openpay.eventRetryMs ?? RETRY_MS;
  for (let round = 0;; round++) {
    let outcome: SettleOutcome | "early";
    try {
      if (!openpayConfigured(deps.config.openpay)) throw new Error("Openpay is not configured");
      const fetched = await openpayClient(deps.config.openpay).getCharge(event.transaction_id);
      if (fetched.status === "completed") outcome = await settlePaid(deps, fetched, source);
      else if (fetched.status === "cancelled") {
        outcome = await settleEnded(deps, fetched.id, "reference_expired", source);
      } else if (fetched.status === "failed") {
        outcome = await settleEnded(deps, fetched.id, "failed", source);
      } else outcome = fetched.status === announced ? "ignored" : "early";
    } catch (e) {
      if (e instanceof OpenpayError && e.status === 404) {
        // Openpay does not know the charge: not ours (or forged), kept for a person.
        await addFlag(deps.kv, {
          at: new Date(deps.now()).toISOString(),
          reason: "unknown_charge",
          event_type: event.type,
          transaction_id: event.transaction_id,
          bill_id: null,
          amount: null,
        });
        return await settleEvent(deps.kv, { ...event, outcome: "flagged" });
      }
      deps.log.log("warn", "openpay event not handled, left for a redelivery", {
        type: event.type,
        transaction: event.transaction_id,
        error: e instanceof OpenpayError ? e.message : String(e),
      });
      return await releaseEvent(deps.kv, event.type, event.transaction_id);
    }
    if (outcome !== "early") return await settleEvent(deps.kv, { ...event, outcome });
    if (round >= RETRIES || !await wait(delay, signal)) {
      deps.log.log("info", "openpay event not confirmed yet, left for a redelivery", {
        type: event.type,
        transaction: event.transaction_id,
      });
      return await releaseEvent(deps.kv, event.type, event.transaction_id);
    }
    delay *= 2;
  }
}
