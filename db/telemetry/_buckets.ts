/**
 * Calendar buckets of the chart views, in UTC: 15 minutes, hours and days are fixed
 * lengths from the epoch; months start on the first day of the month at 00:00 UTC.
 */

/** Bucket sizes of the chart views. */
export type Bucket = "15m" | "1h" | "1d" | "1M";

/** Every bucket size, finest first. */
export const BUCKETS: readonly Bucket[] = ["15m", "1h", "1d", "1M"];

const FIXED_MS: Record<Exclude<Bucket, "1M">, number> = {
  "15m": 15 * 60_000,
  "1h": 3_600_000,
  "1d": 86_400_000,
};

/** Whether `x` names a bucket size. */
export function isBucket(x: unknown): x is Bucket {
  return typeof x === "string" && (BUCKETS as readonly string[]).includes(x);
}

/** Start of the bucket holding `ts`. */
export function bucketFloor(bucket: Bucket, ts: number): number {
  if (bucket === "1M") {
    const d = new Date(ts);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  }
  const size = FIXED_MS[bucket];
  return Math.floor(ts / size) * size;
}

/** Start of the bucket after the one starting at `start` (a bucket start). */
export function bucketNext(bucket: Bucket, start: number): number {
  if (bucket === "1M") {
    const d = new Date(start);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  }
  return start + FIXED_MS[bucket];
}

/** The first bucket start at or after `ts`. */
export function bucketCeil(bucket: Bucket, ts: number): number {
  const floor = bucketFloor(bucket, ts);
  return floor === ts ? ts : bucketNext(bucket, floor);
}
