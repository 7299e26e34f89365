/** Sign-in: the password, throttled, then (for an account that has one) the second factor. */
import type { Deps } from "./deps.ts";
import { Refusal } from "./refusal.ts";
import type { User } from "../core/types.ts";
import { burnVerification, verifyPassword } from "./platform/passwords.ts";
import { startSession } from "./sessions.ts";
import { findUserByEmail, publicUser } from "../db/users.ts";
import { cancelAttempt, reserveAttempt, settleSuccess } from "../db/throttle.ts";
import { auditSignIn } from "./audit.ts";

/** The outcome of a sign-in. */
export type SignInResult =
  | { ok: true; user: User; token: string; ttlSeconds: number }
  | { ok: false; reason: "invalid" | "disabled" }
  | { ok: false; reason: "throttled"; retryAfterMs: number };

/**
 * Checks credentials. The attempt is reserved with the throttle (per account, per address,
 * per account from the address) before the password is verified, and given back on success;
 * when there is no capacity to verify it (`errors.busy`), it is given back whole: that is not
 * a failure. An account nobody failed on lately is verified ahead of other password work, and
 * an unknown e-mail takes no thread that such a sign-in needs (`burnVerification`).
 */
export async function signIn(
  deps: Deps,
  { email, password }: { email: string; password: string },
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
  await settleSuccess(deps.kv, email, address, deps.throttle);
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
