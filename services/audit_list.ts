/** The admin's reading of the audit trail: pages by business dates, the CSV's rows. */
import type { Deps } from "./deps.ts";
import type { AuditEntry, AuditFilter, AuditPageQuery } from "../core/audit.ts";
import { listAudit } from "../db/audit.ts";
import { clockOf } from "./platform/clock.ts";

/** Entries per page of the admin's audit page. */
export const AUDIT_PAGE_SIZE = 50;
/** The most entries one CSV download holds (newest first). */
export const AUDIT_CSV_MAX = 20_000;

/** The filter of the page's query: its dates as business days (`to` inclusive). */
export function auditFilterOf(deps: Deps, q: AuditPageQuery): AuditFilter {
  const clock = clockOf(deps);
  const DAY = 86_400_000;
  return {
    actor: q.actor,
    kind: q.kind,
    object: q.object,
    from: q.from ? clock.dayStart(q.from) : undefined,
    to: q.to ? clock.dayStart(q.to) + DAY : undefined,
  };
}

/** Every entry of a filter, newest first, up to {@link AUDIT_CSV_MAX}. */
export async function auditAll(deps: Deps, filter: AuditFilter): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await listAudit(deps.kv, filter, 500, cursor);
    out.push(...page.entries);
    cursor = page.next_cursor ?? undefined;
  } while (cursor && out.length < AUDIT_CSV_MAX);
  return out.slice(0, AUDIT_CSV_MAX);
}
