/**
 * Forms kept when their post arrived after the session ended (see `services/kept_forms.ts`):
 * what was typed, for the account whose expired session posted it, for a short while. One per
 * account (a newer post replaces it), so what an account can keep is bounded.
 *
 * Key layout: `["kept_form", ownerId]` → {@link KeptForm} (its `id`: 128 random bits,
 * base64url, also in the browser's cookie), expiring with the entry.
 */

/** A kept form post. */
export interface KeptForm {
  /** Names this post (the browser holds it): an older cookie does not take a newer form. */
  id: string;
  /** The account whose (expired) session posted it: only that account gets it back. */
  owner: number;
  /** The page (path and query) the form is on. */
  page: string;
  /** The path the form posted to. */
  action: string;
  /** Its fields in order (passwords and other secrets left out). */
  fields: [string, string][];
  /** Not given back after this instant (epoch ms). */
  expires_at: number;
}

const key = (owner: number) => ["kept_form", owner];

/** Keeps `form` for its owner until its `expires_at` (`nowMs` the clock's time). */
export async function putKeptForm(kv: Deno.Kv, form: KeptForm, nowMs: number) {
  await kv.set(key(form.owner), form, { expireIn: Math.max(1000, form.expires_at - nowMs) });
}

/** The form kept for `owner` (null when none). */
export async function peekKeptForm(kv: Deno.Kv, owner: number): Promise<KeptForm | null> {
  return (await kv.get<KeptForm>(key(owner))).value;
}

/** Removes the form kept for `owner` if it is still `id`; true when this call removed it. */
export async function takeKeptForm(kv: Deno.Kv, owner: number, id: string): Promise<boolean> {
  const entry = await kv.get<KeptForm>(key(owner));
  if (entry.value?.id !== id) return false;
  return (await kv.atomic().check(entry).delete(key(owner)).commit()).ok;
}
