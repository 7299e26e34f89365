/**
 * The business clock of a `Deps`: `clockOf(deps).today()`, `.periodBounds(period)`, ….
 *
 * Not a field of `Deps`: a clock made once would keep the `now` it was made with, yet callers
 * give a use case the same dependencies with another clock (`{ ...deps, now }`, which would copy
 * the old field) and tests move `deps.now` while the app runs. So the clock is asked of the
 * dependencies at hand, and reads `deps.now` and `deps.config.utcOffsetMinutes` at each call.
 */
import { type BusinessClock, businessClock } from "../../core/business_clock.ts";
import type { Deps } from "../deps.ts";

/** What a clock reads: the instant and the configured business time zone. */
type ClockDeps = Pick<Deps, "now" | "config">;

const clocks = new WeakMap<ClockDeps, BusinessClock>();

/** The business clock reading through `deps` (one per dependencies object, made on first use). */
export function clockOf(deps: ClockDeps): BusinessClock {
  let clock = clocks.get(deps);
  if (!clock) {
    clock = businessClock(() => deps.now(), () => deps.config.utcOffsetMinutes);
    clocks.set(deps, clock);
  }
  return clock;
}
