/**
 * Openpay's webhook (issue 12): Basic auth checked in constant time; the `verification` event's
 * code kept for the admin; every other event claimed once per (`type`, `transaction.id`) and
 * handled after the answer, so the caller is answered fast. `charge.succeeded` fetches the
 * charge again from Openpay and pays only on what that answer says; `charge.cancelled` and
 * `transaction.expired` expire the reference; `charge.failed` fails it; other types and unknown
 * fields are ignored. A handling that could not reach Openpay is forgotten, so a redelivery (or
 * the reconciliation sweep) finishes it.
 */
import type { Deps } from "../deps.ts";
import {
  addFlag,
  claimEvent,
  putVerification,
  releaseEvent,
  settleEvent,
  type StoredEvent,
} from "../../db/payments.ts";
import { openpayClient, openpayConfigured, OpenpayError } from "./openpay_client.ts";
import { settleEnded, type SettleOutcome, settlePaid } from "./settle.ts";

/** Whether `header` is the Basic authorization of the configured webhook user (constant time). */
export function webhookAuthorized(deps: Deps, header: string | null | undefined): boolean {
  const { webhookUser, webhookPassword } = deps.config.openpay;
  if (!webhookUser || !webhookPassword) return false;
  const bytes = new TextEncoder().encode(`${webhookUser}:${webhookPassword}`);
  const want = new TextEncoder().encode(`Basic ${btoa(String.fromCharCode(...bytes))}`);
  const got = new TextEncoder().encode(header ?? "");
  let diff = want.length ^ got.length;
  for (let i = 0; i < want.length; i++) diff |= want[i] ^ (got[i] ?? 0);
  return diff === 0;
}

/** What the webhook did with a body. */
export type WebhookReceipt = "verification" | "duplicate" | "accepted" | "ignored" | "invalid";

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
 * Takes one webhook body (already authorized): answers at once what it will do, handling a new
 * charge event in the background.
 */
export async function receiveWebhook(deps: Deps, body: unknown): Promise<WebhookReceipt> {
  const b = body as Record<string, unknown> | null;
  if (!b || typeof b !== "object" || typeof b.type !== "string") return "invalid";
  const at = new Date(deps.now()).toISOString();
  if (b.type === "verification") {
    if (typeof b.verification_code !== "string") return "invalid";
    await putVerification(deps.kv, b.verification_code.slice(0, 100), at);
    deps.log.log("info", "openpay webhook verification code received", {});
    return "verification";
  }
  const tx = b.transaction as Record<string, unknown> | null | undefined;
  if (!tx || typeof tx !== "object" || typeof tx.id !== "string" || !tx.id) return "invalid";
  const event: StoredEvent = {
    type: b.type.slice(0, 60),
    transaction_id: tx.id.slice(0, 100),
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

async function handle(deps: Deps, event: StoredEvent): Promise<void> {
  const source = { event: event.type, cause: "processor_event" as const };
  let outcome: SettleOutcome;
  try {
    if (event.type === "charge.succeeded") {
      if (!openpayConfigured(deps.config.openpay)) throw new Error("Openpay is not configured");
      const fetched = await openpayClient(deps.config.openpay).getCharge(event.transaction_id);
      outcome = await settlePaid(deps, fetched, source);
    } else if (event.type === "charge.cancelled" || event.type === "transaction.expired") {
      outcome = await settleEnded(deps, event.transaction_id, "reference_expired", source);
    } else if (event.type === "charge.failed") {
      outcome = await settleEnded(deps, event.transaction_id, "failed", source);
    } else outcome = "ignored";
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
      await settleEvent(deps.kv, { ...event, outcome: "flagged" });
      return;
    }
    deps.log.log("warn", "openpay event not handled, left for a redelivery", {
      type: event.type,
      transaction: event.transaction_id,
      error: e instanceof OpenpayError ? e.message : String(e),
    });
    await releaseEvent(deps.kv, event.type, event.transaction_id);
    return;
  }
  await settleEvent(deps.kv, { ...event, outcome });
}
