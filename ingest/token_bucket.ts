/** A token bucket per device against floods (pure: time is a parameter). */

/** The state of one bucket. */
export interface Bucket {
  tokens: number;
  /** Epoch ms of the last refill. */
  at: number;
}

/** A full bucket at `now`. */
export function fullBucket(burst: number, now: number): Bucket {
  return { tokens: burst, at: now };
}

/**
 * Refills the bucket at `ratePerSecond` up to `burst` and takes one token. Returns false
 * (and takes nothing) when the bucket is empty: the message is part of a flood.
 */
export function takeToken(
  bucket: Bucket,
  ratePerSecond: number,
  burst: number,
  now: number,
): boolean {
  if (now > bucket.at) {
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) * ratePerSecond) / 1000);
    bucket.at = now;
  }
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}
