/**
 * How a billing run cuts its stations into commits: Deno KV takes at most 100 checks in one
 * atomic commit, and each bill written is one; a group holds whole stations only.
 */
import type { StationPlan } from "./station.ts";

/** Most checks (one per bill) in one commit of several stations (Deno KV allows 100). */
export const GROUP_CHECKS = 64;

/** Checks of a group's commit: each unit bill and each customer bill. */
export function checksOf(plans: readonly StationPlan[]): number {
  return plans.reduce((n, p) => n + p.units.length + 1, 0);
}

/** Plans cut into groups of at most {@link GROUP_CHECKS} checks (a larger station alone). */
export function groups(plans: readonly StationPlan[]): StationPlan[][] {
  const out: StationPlan[][] = [];
  let cur: StationPlan[] = [];
  for (const p of plans) {
    if (cur.length > 0 && checksOf(cur) + p.units.length + 1 > GROUP_CHECKS) {
      out.push(cur);
      cur = [];
    }
    cur.push(p);
  }
  if (cur.length > 0) out.push(cur);
  return out;
}
