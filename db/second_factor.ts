/**
 * Second factors (TOTP) in Deno KV.
 *
 * Key layout:
 * - `["second_factor", userId]` → {@link StoredFactor}: the secret, the last step used (a code
 *   is never accepted twice) and the SHA-256 hashes of the unused recovery codes
 * - `["second_factor_setup", userId]` → {@link FactorSetup}: a secret being set up, until the
 *   account confirms a code (expires after 15 minutes)
 */
import type { AuditStamp } from "../core/audit.ts";
import { stageAudit } from "./audit.ts";

/** An account's second factor, on. */
export interface StoredFactor {
  /** Base32 TOTP secret. */
  secret: string;
  /** The last TOTP step accepted (null: none yet). */
  last_step: number | null;
  /** SHA-256 (hex) of each recovery code not used yet. */
  recovery: string[];
  enabled_at: number;
}

/** A secret shown to the account, waiting for its first code. */
export interface FactorSetup {
  secret: string;
  created_at: number;
}

const factorKey = (id: number) => ["second_factor", id];
const setupKey = (id: number) => ["second_factor_setup", id];
const SETUP_TTL_MS = 15 * 60_000;

/** The account's second factor, or null when it has none. */
export async function getFactor(kv: Deno.Kv, userId: number): Promise<StoredFactor | null> {
  return (await kv.get<StoredFactor>(factorKey(userId))).value;
}

/** Keeps a secret being set up (replacing an earlier one). */
export async function putSetup(kv: Deno.Kv, userId: number, setup: FactorSetup): Promise<void> {
  await kv.set(setupKey(userId), setup, { expireIn: SETUP_TTL_MS });
}

/** The secret being set up, unless it is older than 15 minutes at `now`. */
export async function getSetup(
  kv: Deno.Kv,
  userId: number,
  now: number,
): Promise<FactorSetup | null> {
  const v = (await kv.get<FactorSetup>(setupKey(userId))).value;
  return v && now - v.created_at < SETUP_TTL_MS ? v : null;
}

/**
 * Turns the factor on with the secret set up (which goes): false when the setup changed or the
 * account has a factor already.
 */
export async function enableFactor(
  kv: Deno.Kv,
  userId: number,
  setup: FactorSetup,
  factor: StoredFactor,
  audit?: AuditStamp,
): Promise<boolean> {
  const cur = await kv.get<FactorSetup>(setupKey(userId));
  if (cur.value?.secret !== setup.secret) return false;
  const op = kv.atomic().check(cur).check({ key: factorKey(userId), versionstamp: null })
    .delete(setupKey(userId)).set(factorKey(userId), factor);
  if (audit) stageAudit(op, audit, { second_factor: false }, { second_factor: true });
  return (await op.commit()).ok;
}

/** Turns the factor off; false when it was not on. */
export async function disableFactor(
  kv: Deno.Kv,
  userId: number,
  audit?: AuditStamp,
): Promise<boolean> {
  const cur = await kv.get<StoredFactor>(factorKey(userId));
  if (!cur.value) return false;
  const op = kv.atomic().check(cur).delete(factorKey(userId));
  if (audit) stageAudit(op, audit, { second_factor: true }, { second_factor: false });
  return (await op.commit()).ok;
}

/**
 * Marks `step` used if it is later than the last step used (checked in the same commit, so
 * two requests with one code cannot both pass); false otherwise.
 */
export async function consumeStep(kv: Deno.Kv, userId: number, step: number): Promise<boolean> {
  for (;;) {
    const cur = await kv.get<StoredFactor>(factorKey(userId));
    if (!cur.value || (cur.value.last_step !== null && step <= cur.value.last_step)) return false;
    const next = { ...cur.value, last_step: step };
    if ((await kv.atomic().check(cur).set(cur.key, next).commit()).ok) return true;
  }
}

/** Uses up the recovery code of hash `hash`; false when it is not (or no longer) there. */
export async function consumeRecovery(kv: Deno.Kv, userId: number, hash: string): Promise<boolean> {
  for (;;) {
    const cur = await kv.get<StoredFactor>(factorKey(userId));
    if (!cur.value || !cur.value.recovery.includes(hash)) return false;
    const next = { ...cur.value, recovery: cur.value.recovery.filter((h) => h !== hash) };
    if ((await kv.atomic().check(cur).set(cur.key, next).commit()).ok) return true;
  }
}
