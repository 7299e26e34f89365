/** Each account's choice of messages in Settings (issue 28). */
import type { Deps } from "../deps.ts";
import { type MessageKind, type MessagePrefs, OPTIONAL_KINDS, wants } from "../../core/messages.ts";
import type { Role } from "../../core/roles.ts";
import { getMessagePrefs, putMessagePrefs } from "../../db/message_prefs.ts";
import { getUser } from "../../db/users.ts";
import { undeliverable } from "../../db/outbox.ts";

/** The kinds each role may receive. */
const KINDS_OF: Record<Role, MessageKind[]> = {
  user: [
    "bill_finalized",
    "bill_reminder",
    "bill_overdue",
    "spei_reference",
    "payment_receipt",
    "zone_prices",
    "invoice_issued",
  ],
  customer: ["owner_statement", "owner_payments", "invoice_issued"],
  admin: ["meter_offline", "reconciliation_failed", "failed_digest", "alert"],
};

/** What the Settings form shows. */
export interface PrefsView {
  kinds: { kind: MessageKind; on: boolean }[];
  whatsapp: boolean;
  /** Why mail to the account's address is refused, or null. */
  undeliverable: string | null;
}

/** The choices of account `id` (of `role`), defaults filled in. */
export async function messagePrefsOf(deps: Deps, id: number, role: Role): Promise<PrefsView> {
  const prefs = await getMessagePrefs(deps.kv, id);
  const user = await getUser(deps.kv, id);
  const refused = user ? await undeliverable(deps.kv, user.email) : null;
  return {
    kinds: KINDS_OF[role].map((kind) => ({ kind, on: wants(prefs, kind) })),
    whatsapp: prefs?.whatsapp ?? false,
    undeliverable: refused?.reason ?? null,
  };
}

/** Saves the kinds checked (`on`) of those the role has, and the WhatsApp opt-in. */
export async function saveMessagePrefs(
  deps: Deps,
  id: number,
  role: Role,
  on: ReadonlySet<string>,
  whatsapp: boolean,
): Promise<void> {
  const prev = await getMessagePrefs(deps.kv, id);
  const kinds: MessagePrefs["kinds"] = { ...prev?.kinds };
  for (const kind of KINDS_OF[role]) {
    if (OPTIONAL_KINDS[kind] !== undefined) kinds[kind] = on.has(kind);
  }
  await putMessagePrefs(deps.kv, id, { kinds, whatsapp });
}
