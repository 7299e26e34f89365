/**
 * Forms kept when their post arrived after the session ended (see `services/kept_forms.ts`):
 * what was typed, for the account whose expired session posted it, for a short while.
 *
 * Key layout: `["kept_form", id]` → {@link KeptForm} (id: 128 random bits, base64url),
 * expiring with the entry.
 */

/** A kept form post. */
export interface KeptForm {
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

const key = (id: string) => ["kept_form", id];

/** Keeps `form` under `id` until its `expires_at` (`nowMs` the clock's time). */
export async function putKeptForm(kv: Deno.Kv, id: string, form: KeptForm, nowMs: number) {
  await kv.set(key(id), form, { expireIn: Math.max(1000, form.expires_at - nowMs) });
}

/** Reads and removes the form kept under `id` (null when none). */
export async function takeKeptForm(kv: Deno.Kv, id: string): Promise<KeptForm | null> {
  const entry = await kv.get<KeptForm>(key(id));
  if (!entry.value) return null;
  const res = await kv.atomic().check(entry).delete(key(id)).commit();
  return res.ok ? entry.value : null;
}

/** Reads the form kept under `id` without removing it (null when none). */
export async function peekKeptForm(kv: Deno.Kv, id: string): Promise<KeptForm | null> {
  return (await kv.get<KeptForm>(key(id))).value;
}
