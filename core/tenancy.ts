/**
 * Tenancies (issue 24): who held a unit when. A unit's tenancies are dated intervals
 * `[from, to)` of instants (epoch ms; `to` null while it lasts), never overlapping; the time
 * between them is vacant. A billing period is cut into parts at every boundary that falls
 * inside it: one part per tenancy and one per vacant stretch, covering the period exactly, so
 * each part gets its own bill. Pure: time is a parameter.
 *
 * A boundary given as a date (`YYYY-MM-DD`) is that day's first instant in the business time
 * zone; an ISO instant is taken as it is.
 */
import { dayStart, isRealDate, localDate } from "./local_time.ts";

/** One tenancy of a unit. */
export interface Tenancy {
  tenant_id: number;
  /** First instant (epoch ms). */
  from: number;
  /** First instant after it (epoch ms), or null while it lasts. */
  to: number | null;
  /** The meter's counter at the move-in and at the move-out (kWh), when read at the handover. */
  reading_from_kwh: number | null;
  reading_to_kwh: number | null;
}

/** A part of a billing period: a tenancy's days in it, or a vacant stretch (`tenant_id` null). */
interface PeriodPart {
  tenant_id: number | null;
  from: number;
  to: number;
  /** The handover readings at the part's ends, when given (kWh). */
  reading_from_kwh: number | null;
  reading_to_kwh: number | null;
}

/** Tenancies ordered by their start. */
function sortTenancies<T extends Pick<Tenancy, "from">>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => a.from - b.from);
}

/**
 * The parts of `[bounds.from, bounds.to)`: each tenancy's overlap with it and the vacant
 * stretches between, in order. A unit held by one tenant the whole period has one part.
 */
export function periodParts(
  tenancies: readonly Tenancy[],
  bounds: { from: number; to: number },
): PeriodPart[] {
  const parts: PeriodPart[] = [];
  let at = bounds.from;
  const vacant = (to: number) => {
    if (to > at) {
      parts.push({
        tenant_id: null,
        from: at,
        to,
        reading_from_kwh: null,
        reading_to_kwh: null,
      });
    }
  };
  for (const t of sortTenancies(tenancies)) {
    const from = Math.max(t.from, bounds.from);
    const to = Math.min(t.to ?? Infinity, bounds.to);
    if (to <= from || to <= at) continue;
    vacant(from);
    const start = Math.max(from, at);
    parts.push({
      tenant_id: t.tenant_id,
      from: start,
      to,
      reading_from_kwh: t.from === start ? t.reading_from_kwh : null,
      reading_to_kwh: t.to === to ? t.reading_to_kwh : null,
    });
    at = to;
  }
  vacant(bounds.to);
  return parts;
}

/** The tenancy in force at `at`, or null (vacant). */
export function tenancyAt<T extends Tenancy>(tenancies: readonly T[], at: number): T | null {
  return tenancies.find((t) => t.from <= at && (t.to === null || at < t.to)) ?? null;
}

/**
 * An instant from a date (`YYYY-MM-DD`: its first instant in the business time zone at
 * `offsetMinutes`) or an ISO instant with a time zone; null when it is neither or not a real
 * day.
 */
export function parseInstant(text: string, offsetMinutes: number): number | null {
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    return isRealDate(text) ? dayStart(text, offsetMinutes) : null;
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    return null;
  }
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}

/** Why a change of tenancies is refused. */
export type TenancyRefusal =
  /** The tenant already holds the unit since before `at` (a later start is refused). */
  | { error: "later_start"; since: number }
  /** The current tenancy began at or after `at`. */
  | { error: "before_current"; since: number }
  /** Another tenancy covers part of the time from `at`. */
  | { error: "overlap"; until: number }
  /** Nobody holds the unit. */
  | { error: "no_tenant" };

/** A change of a unit's tenancies: the tenancies after it, or why it is refused. */
export type TenancyChange<T extends Tenancy> =
  | { ok: true; next: T[]; changed: boolean }
  | ({ ok: false } & TenancyRefusal);

const lastEnd = (list: readonly Tenancy[]) =>
  list.reduce((n, t) => Math.max(n, t.to ?? Infinity), -Infinity);

/**
 * `tenantId` moves into the unit at `at` (the handover reading when given). The tenant who
 * holds it moves out then. The same tenant again with an earlier start moves the start of
 * their tenancy back (the account was made after they moved in); a later one is refused while
 * they hold the unit, and so is a start at or before the current tenancy's or inside an ended
 * one.
 */
export function moveIn<T extends Tenancy>(
  list: readonly T[],
  make: (fields: Tenancy) => T,
  tenantId: number,
  at: number,
  reading: number | null,
): TenancyChange<T> {
  const open = list.find((t) => t.to === null) ?? null;
  const closed = list.filter((t) => t !== open);
  if (open && open.tenant_id === tenantId) {
    if (at === open.from) return { ok: true, next: [...list], changed: false };
    if (at > open.from) return { ok: false, error: "later_start", since: open.from };
    if (lastEnd(closed) > at) return { ok: false, error: "overlap", until: lastEnd(closed) };
    const moved = make({ ...open, from: at, reading_from_kwh: reading ?? open.reading_from_kwh });
    return { ok: true, next: sortTenancies([...closed, moved]), changed: true };
  }
  if (open && at <= open.from) return { ok: false, error: "before_current", since: open.from };
  if (lastEnd(closed) > at) return { ok: false, error: "overlap", until: lastEnd(closed) };
  const ended = open ? [make({ ...open, to: at, reading_to_kwh: reading })] : [];
  const started = make({
    tenant_id: tenantId,
    from: at,
    to: null,
    reading_from_kwh: reading,
    reading_to_kwh: null,
  });
  return { ok: true, next: sortTenancies([...closed, ...ended, started]), changed: true };
}

/** The unit's tenant moves out at `at` (the handover reading when given). */
export function moveOut<T extends Tenancy>(
  list: readonly T[],
  make: (fields: Tenancy) => T,
  at: number,
  reading: number | null,
): TenancyChange<T> {
  const open = list.find((t) => t.to === null);
  if (!open) return { ok: false, error: "no_tenant" };
  if (at <= open.from) return { ok: false, error: "before_current", since: open.from };
  const ended = make({ ...open, to: at, reading_to_kwh: reading });
  return { ok: true, next: sortTenancies(list.map((t) => t === open ? ended : t)), changed: true };
}

/** A split bill's part as local dates, its last day included; null for the whole period. */
export function tenancyDates(
  b: { tenancy_from: string | null; tenancy_to: string | null },
  offsetMinutes: number,
): { from: string; to: string } | null {
  if (!b.tenancy_from || !b.tenancy_to) return null;
  return {
    from: localDate(Date.parse(b.tenancy_from), offsetMinutes),
    to: localDate(Date.parse(b.tenancy_to) - 1, offsetMinutes),
  };
}
