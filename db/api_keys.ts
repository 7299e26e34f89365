/**
 * API keys in Deno KV (the key itself is never stored, only its SHA-256; `core/api_keys.ts`).
 *
 * Key layout:
 * - `["api_keys", id]` → {@link ApiKey}
 * - `["api_keys_by_hash", sha256hex]` → id
 */
import type { ApiKey } from "../core/api_keys.ts";
import type { AuditStamp } from "../core/audit.ts";
import { stageAudit } from "./audit.ts";
import { listValues } from "./kv.ts";

const keyKey = (id: string) => ["api_keys", id];
const hashKey = (hash: string) => ["api_keys_by_hash", hash];

/** Stores a new key under its hash; false when the id or hash exists (draw again). */
export async function insertApiKey(
  kv: Deno.Kv,
  key: ApiKey,
  hash: string,
  audit?: AuditStamp,
): Promise<boolean> {
  const op = kv.atomic()
    .check({ key: keyKey(key.id), versionstamp: null })
    .check({ key: hashKey(hash), versionstamp: null })
    .set(keyKey(key.id), key)
    .set(hashKey(hash), key.id);
  if (audit) stageAudit(op, { ...audit, object: `api_key:${key.id}` }, null, key);
  return (await op.commit()).ok;
}

/** The key whose hash is `hash`, or null. */
export async function keyByHash(kv: Deno.Kv, hash: string): Promise<ApiKey | null> {
  const id = (await kv.get<string>(hashKey(hash))).value;
  return id === null ? null : (await kv.get<ApiKey>(keyKey(id))).value;
}

/** Every key, oldest first. */
export function listApiKeys(kv: Deno.Kv): Promise<ApiKey[]> {
  return listValues<ApiKey>(kv, ["api_keys"]);
}

/** Revokes a key at `now`; null when there is none, the key as it was when already revoked. */
export async function revokeApiKey(
  kv: Deno.Kv,
  id: string,
  now: number,
  audit?: AuditStamp,
): Promise<ApiKey | null> {
  for (;;) {
    const cur = await kv.get<ApiKey>(keyKey(id));
    if (!cur.value) return null;
    if (cur.value.revoked_at !== null) return cur.value;
    const next = { ...cur.value, revoked_at: now };
    const op = kv.atomic().check(cur).set(cur.key, next);
    if (audit) stageAudit(op, audit, cur.value, next);
    if ((await op.commit()).ok) return next;
  }
}

/** Records a key's use at `now` (a lost race is fine: another request wrote it). */
export async function touchApiKey(kv: Deno.Kv, id: string, now: number): Promise<void> {
  const cur = await kv.get<ApiKey>(keyKey(id));
  if (!cur.value) return;
  await kv.atomic().check(cur).set(cur.key, { ...cur.value, last_used_at: now }).commit();
}
