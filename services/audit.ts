/**
 * The audit trail's use cases: the stamp a change's commit records (who, from where, what),
 * an admin's sign-in, and the admin's pages and API reading the trail.
 */
import type { Deps } from "./deps.ts";
import type { AuditEntry, AuditFilter, AuditKind, AuditStamp } from "../core/audit.ts";
import { appendAudit, listAudit } from "../db/audit.ts";
import type { User } from "../core/types.ts";

/**
 * The stamp of a change made on behalf of `deps.actor` (set by the routes for a signed-in
 * request), or undefined when nobody acts (a script, a schedule): such changes are not audited.
 */
export function auditStamp(
  deps: Deps,
  kind: AuditKind,
  object: string,
  reason?: string,
): AuditStamp | undefined {
  if (!deps.actor) return undefined;
  return { at: deps.now(), actor: deps.actor, kind, object, ...(reason ? { reason } : {}) };
}

/** Records a sign-in as admin (no other sign-in is audited). */
export async function auditSignIn(deps: Deps, user: User, address: string): Promise<void> {
  if (user.role !== "admin") return;
  await appendAudit(deps.kv, {
    at: deps.now(),
    actor: { id: user.id, email: user.email, address },
    kind: "sign_in",
    object: `user:${user.id}`,
  });
}

/** A page of the trail, newest first. */
export function auditPage(
  deps: Deps,
  filter: AuditFilter,
  limit: number,
  cursor?: string,
): Promise<{ entries: AuditEntry[]; next_cursor: string | null }> {
  return listAudit(deps.kv, filter, limit, cursor);
}
