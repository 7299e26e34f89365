/**
 * API keys: an admin makes a named key with a scope and an expiry (shown once), lists them with
 * their last use and revokes one at once; a request with `Authorization: Bearer pk_…` acts as
 * the admin who made it, within its scope (`core/api_keys.ts` `scopeAllows`).
 */
import type { Deps } from "./deps.ts";
import { notFound } from "./refusal.ts";
import type { User } from "../core/types.ts";
import type { z } from "zod";
import {
  API_KEY,
  type ApiKey,
  type apiKeyCreateSchema,
  DAY_MS,
  keyLive,
  LAST_USE_EVERY_MS,
} from "../core/api_keys.ts";
import { insertApiKey, keyByHash, listApiKeys, revokeApiKey, touchApiKey } from "../db/api_keys.ts";
import { getUser, publicUser } from "../db/users.ts";
import { auditStamp } from "./audit.ts";

const hex = (b: ArrayBuffer | Uint8Array) =>
  [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");

/** SHA-256 of a key, hex: what is stored. */
async function keyHash(token: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
}

/** A new key: `pk_` and 32 random bytes in base64url (43 characters). */
function drawKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const b64 = btoa(String.fromCharCode(...bytes));
  return `pk_${b64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

/** Makes a key for `creator`; answers the key (shown this once) and its record. */
export async function createApiKey(
  deps: Deps,
  input: z.output<typeof apiKeyCreateSchema>,
  creator: User,
): Promise<{ token: string; key: ApiKey }> {
  const now = deps.now();
  for (;;) {
    const token = drawKey();
    const key: ApiKey = {
      id: hex(crypto.getRandomValues(new Uint8Array(6))),
      name: input.name,
      scope: input.scope,
      created_at: now,
      expires_at: now + input.expires_in_days * DAY_MS,
      created_by: { id: creator.id, email: creator.email },
      revoked_at: null,
      last_used_at: null,
    };
    const audit = auditStamp(deps, "api_key.create", "api_key:new");
    if (await insertApiKey(deps.kv, key, await keyHash(token), audit)) return { token, key };
  }
}

/** Every key, newest first. */
export async function apiKeys(deps: Deps): Promise<ApiKey[]> {
  return (await listApiKeys(deps.kv)).sort((a, b) => b.created_at - a.created_at);
}

/** Revokes a key at once (not found when there is none). */
export async function revokeKey(deps: Deps, id: string): Promise<ApiKey> {
  const audit = auditStamp(deps, "api_key.revoke", `api_key:${id}`);
  const key = await revokeApiKey(deps.kv, id, deps.now(), audit);
  if (!key) throw notFound("api_keys.errors.not_found");
  return key;
}

/**
 * The admin a bearer key acts as, and the key: null when the text is no key of ours, or the
 * key is revoked or expired, or its maker is no longer an active admin. Its last use is
 * written when it is more than a minute old (not on every request).
 */
export async function apiKeyAccount(
  deps: Deps,
  token: string,
): Promise<{ user: User; key: ApiKey } | null> {
  if (!API_KEY.test(token)) return null;
  const key = await keyByHash(deps.kv, await keyHash(token));
  const now = deps.now();
  if (!key || !keyLive(key, now)) return null;
  const maker = await getUser(deps.kv, key.created_by.id);
  if (!maker || !maker.is_active || maker.role !== "admin") return null;
  if (key.last_used_at === null || now - key.last_used_at >= LAST_USE_EVERY_MS) {
    await touchApiKey(deps.kv, key.id, now);
  }
  return { user: publicUser(maker), key };
}
