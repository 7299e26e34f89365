/**
 * A form posted after its session ended is kept, not lost (issue "what a newcomer trips on",
 * item 5). The post is never carried out: its fields are kept server-side for
 * {@link KEPT_FORM_MINUTES} minutes under a random id (one form per account, the newest), bound
 * to the account whose expired session posted it; once that same account has signed in again, its form page shows the
 * fields filled in, and the person checks them and saves. Another account signing in on the
 * same browser never gets them, and nothing is replayed, so a forged post could at most fill
 * a form its victim still has to submit (and cross-site posts are refused before this anyway).
 * Passwords and other secrets are never kept.
 */
import type { Deps } from "./deps.ts";
import { type KeptForm, peekKeptForm, putKeptForm, takeKeptForm } from "../db/kept_forms.ts";

/** How long a kept form waits for its account to sign in again. */
export const KEPT_FORM_MINUTES = 15;
/** Fields whose values are never kept (they would sit in storage and travel back in a page). */
const SECRET_FIELD = /pass|secret|token|clabe|card|cvv/i;
/** At most this many fields, each at most this long, the whole at most this size (KV's 64 KB). */
const MAX_FIELDS = 300;
const MAX_VALUE = 4000;
const MAX_TOTAL = 48_000;

/** What a kept post was: its account, its form page and the path it posted to. */
interface KeepRequest {
  owner: number;
  page: string;
  action: string;
  fields: [string, string][];
}

/** Keeps a post's fields; answers the id, or null when there is nothing to keep or too much. */
export async function keepForm(deps: Deps, req: KeepRequest): Promise<string | null> {
  const fields = req.fields
    .filter(([k]) => !SECRET_FIELD.test(k))
    .slice(0, MAX_FIELDS)
    .map(([k, v]): [string, string] => [k.slice(0, 200), v.slice(0, MAX_VALUE)]);
  if (fields.length === 0) return null;
  const now = deps.now();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
  const form: KeptForm = { ...req, id, fields, expires_at: now + KEPT_FORM_MINUTES * 60_000 };
  if (JSON.stringify(form).length > MAX_TOTAL) return null;
  await putKeptForm(deps.kv, form, now);
  return id;
}

/** A kept form given back: the path it posted to and its fields. */
export type RestoredForm = Pick<KeptForm, "action" | "fields">;

/**
 * The form kept under `id` for `userId` on `page`, taken (given back once); null when there is
 * none for this account (another account's is never looked at), it expired or was replaced;
 * "elsewhere" when it is for another page (kept for it).
 */
export async function restoreForm(
  deps: Deps,
  id: string,
  userId: number,
  page: string,
): Promise<RestoredForm | "elsewhere" | null> {
  if (!/^[A-Za-z0-9_-]{22}$/.test(id)) return null;
  const kept = await peekKeptForm(deps.kv, userId);
  if (!kept || kept.id !== id || kept.expires_at <= deps.now()) return null;
  if (kept.page !== page) return "elsewhere";
  return await takeKeptForm(deps.kv, userId, id)
    ? { action: kept.action, fields: kept.fields }
    : null;
}
