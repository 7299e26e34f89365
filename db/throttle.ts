/**
 * Failed sign-in counters in Deno KV, per account and per client address.
 *
 * Key layout: `["login_fail", "email" | "ip", value]` → {@link FailCount}, expiring with
 * its window.
 */

/** Failures within the current window. */
export interface FailCount {
  count: number;
  first_at: number;
}

/** The throttle's policy. */
export interface ThrottlePolicy {
  /** Failures allowed per account within the window. */
  maxPerAccount: number;
  /** Failures allowed per address within the window. */
  maxPerAddress: number;
  /** Window length in milliseconds. */
  windowMs: number;
}

/** Default: 5 failures per account and 20 per address in 15 minutes. */
export const DEFAULT_THROTTLE: ThrottlePolicy = {
  maxPerAccount: 5,
  maxPerAddress: 20,
  windowMs: 15 * 60_000,
};

const key = (kind: "email" | "ip", value: string) => ["login_fail", kind, value];

/**
 * Milliseconds until another attempt is allowed for this account or address, or 0 when
 * an attempt may go ahead now.
 */
export async function retryAfter(
  kv: Deno.Kv,
  email: string,
  ip: string,
  now: number,
  policy: ThrottlePolicy,
): Promise<number> {
  let wait = 0;
  for (
    const [k, max] of [[key("email", email), policy.maxPerAccount], [
      key("ip", ip),
      policy.maxPerAddress,
    ]] as const
  ) {
    const v = (await kv.get<FailCount>(k)).value;
    if (v && now - v.first_at < policy.windowMs && v.count >= max) {
      wait = Math.max(wait, v.first_at + policy.windowMs - now);
    }
  }
  return wait;
}

/** Counts one failed sign-in for the account and the address. */
export async function recordFailure(
  kv: Deno.Kv,
  email: string,
  ip: string,
  now: number,
  policy: ThrottlePolicy,
): Promise<void> {
  for (const k of [key("email", email), key("ip", ip)]) {
    for (;;) {
      const cur = await kv.get<FailCount>(k);
      const live = cur.value && now - cur.value.first_at < policy.windowMs;
      const next: FailCount = live
        ? { count: cur.value!.count + 1, first_at: cur.value!.first_at }
        : { count: 1, first_at: now };
      const res = await kv.atomic().check(cur).set(k, next, { expireIn: policy.windowMs }).commit();
      if (res.ok) break;
    }
  }
}

/** Forgets the account's failures after a successful sign-in. */
export async function clearFailures(kv: Deno.Kv, email: string): Promise<void> {
  await kv.delete(key("email", email));
}
