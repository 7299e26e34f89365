/**
 * Password hashing with Argon2id at the OWASP-recommended parameters (19 MiB memory,
 * 2 iterations, parallelism 1), in the PHC string format. The work runs on the password pool's
 * threads (`password_pool.ts`); when its queue is full the call is refused (`errors.busy`).
 */
import { createPasswordPool, type PasswordLane, type PasswordPool } from "./password_pool.ts";
import { Refusal } from "../refusal.ts";

let pool: PasswordPool | null = null;
const shared = () => (pool ??= createPasswordPool());

/** Stops the pool's threads (at shutdown; a later call starts them again). */
export async function closePasswordPool(): Promise<void> {
  const p = pool;
  pool = null;
  await p?.close();
}

/** Hashes a password with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  return String(await shared().run({ op: "hash", password }));
}

/**
 * How long a verification took lately, queue included (ms): a moving average over the last
 * few, what an unknown e-mail waits when no thread is free (see {@link burnVerification}).
 */
let recentVerifyMs = 100;

/**
 * True when `password` matches the stored hash; false for a malformed hash. `lane` `first`
 * puts it ahead of the pool's other jobs (a sign-in of an account without recent failures).
 */
export async function verifyPassword(
  password: string,
  hash: string,
  lane: PasswordLane = "later",
): Promise<boolean> {
  if (!hash.startsWith("$argon2id$")) return false;
  const started = performance.now();
  try {
    const ok = (await shared().run({ op: "verify", password, hash }, lane)) === true;
    recentVerifyMs += (performance.now() - started - recentVerifyMs) / 8;
    return ok;
  } catch (e) {
    if (e instanceof Refusal) throw e;
    return false;
  }
}

/** A fixed Argon2id hash of an unused password, with the same parameters as real ones. */
const DUMMY_HASH =
  "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$0Ww+ZJBnDK6zaR0tDhMcDhXNRX4+0Yba9ut7MB0n1Pw";

/**
 * Spends the time of one verification, so that an unknown e-mail takes as long to reject as a
 * wrong password: against a throw-away hash when a thread is free, else by waiting as long as
 * verifications took lately, so that unknown e-mails never take a thread (or a place in the
 * queue) that a real account's sign-in needs.
 */
export async function burnVerification(password: string): Promise<void> {
  if (shared().free()) return void await verifyPassword(password, DUMMY_HASH);
  await new Promise((resolve) => setTimeout(resolve, recentVerifyMs));
}
