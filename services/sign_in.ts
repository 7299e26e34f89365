/** Sign-in: the password, throttled, then (for an account that has one) the second factor. */
import type { Deps } from "./deps.ts";
import { Refusal } from "./refusal.ts";
import type { User } from "../core/types.ts";
import { burnVerification, verifyPassword } from "./platform/passwords.ts";
import { startSession } from "./sessions.ts";
import { findUserByEmail, getUser, publicUser } from "../db/users.ts";
import { challengeFor, challengeUser, checkCode, hasSecondFactor } from "./second_factor.ts";
import { cancelAttempt, reserveAttempt, settleSuccess } from "../db/throttle.ts";
import { auditSignIn } from "./audit.ts";

/** The outcome of a sign-in. */
export type SignInResult =
  | { ok: true; user: User; token: string; ttlSeconds: number }
  | { ok: false; reason: "invalid" | "disabled" | "invalid_code" }
  | { ok: false; reason: "code_required"; challenge: string }
  | { ok: false; reason: "throttled"; retryAfterMs: number };

/**
 * Checks credentials. The attempt is reserved with the throttle (per account, per address,
 * per account from the address) before the password is verified, and given back on success;
 * when there is no capacity to verify it (`errors.busy`), it is given back whole: that is not
 * a failure. An account nobody failed on lately is verified ahead of other password work, and
 * an unknown e-mail takes no thread that such a sign-in needs (`burnVerification`).
 *
 * An account with a second factor needs its code too: given with the password (`code`, the
 * API's `totp_code`), or else the answer is `code_required` with a signed challenge for
 * {@link completeSignIn}. The right password then takes its attempt back without clearing the
 * account's failures (only a right code clears them), so wrong codes add up across sign-ins.
 */
export async function signIn(
  deps: Deps,
  { email, password, code }: { email: string; password: string; code?: string },
  address: string,
): Promise<SignInResult> {
  const now = deps.now();
  const slot = await reserveAttempt(deps.kv, email, address, now, deps.throttle);
  if (!slot.ok) return { ok: false, reason: "throttled", retryAfterMs: slot.retryAfterMs };
  const stored = await findUserByEmail(deps.kv, email);
  const lane = slot.accountFailures === 0 ? "first" : "later";
  const good = await unlessBusy(
    () =>
      stored
        ? verifyPassword(password, stored.password_hash, lane)
        : burnVerification(password).then(() => false),
    () => cancelAttempt(deps.kv, email, address, deps.throttle),
  );
  if (!stored || !good) {
    deps.log.log("info", "sign-in failed", { email, address });
    return { ok: false, reason: "invalid" };
  }
  if (stored.is_active && await hasSecondFactor(deps, stored.id)) {
    if (code === undefined) {
      await cancelAttempt(deps.kv, email, address, deps.throttle);
      return { ok: false, reason: "code_required", challenge: await challengeFor(deps, stored) };
    }
    if (!await checkCode(deps, stored.id, code)) {
      deps.log.log("info", "sign-in code refused", { email, address });
      return { ok: false, reason: "invalid_code" };
    }
  }
  await settleSuccess(deps.kv, email, address, deps.throttle);
  if (!stored.is_active) return { ok: false, reason: "disabled" };
  await auditSignIn(deps, stored, address);
  return { ok: true, user: publicUser(stored), ...await startSession(deps, stored, now) };
}

/**
 * The second step of a sign-in: the challenge the password step answered and the code. The
 * attempt is reserved with the same throttle as a password (a wrong code is a failure).
 */
export async function completeSignIn(
  deps: Deps,
  { challenge, code }: { challenge: string; code: string },
  address: string,
): Promise<SignInResult> {
  const id = await challengeUser(deps, challenge);
  const stored = id === null ? null : await getUser(deps.kv, id);
  if (!stored) return { ok: false, reason: "invalid" };
  const now = deps.now();
  const slot = await reserveAttempt(deps.kv, stored.email, address, now, deps.throttle);
  if (!slot.ok) return { ok: false, reason: "throttled", retryAfterMs: slot.retryAfterMs };
  if (!await checkCode(deps, stored.id, code)) {
    deps.log.log("info", "sign-in code refused", { email: stored.email, address });
    return { ok: false, reason: "invalid_code" };
  }
  await settleSuccess(deps.kv, stored.email, address, deps.throttle);
  if (!stored.is_active) return { ok: false, reason: "disabled" };
  await auditSignIn(deps, stored, address);
  return { ok: true, user: publicUser(stored), ...await startSession(deps, stored, now) };
}

/** What `work` answers; when it is refused for capacity, `giveBack` runs first. */
export async function unlessBusy<T>(
  work: () => Promise<T>,
  giveBack: () => Promise<void>,
): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof Refusal && e.kind === "unavailable") await giveBack();
    throw e;
  }
}
