/**
 * The audit trail in Deno KV: append-only. An entry is staged into the SAME atomic commit as
 * the change it records ({@link stageAudit}), so a change and its entry are stored together
 * or not at all. No function here edits or deletes an entry.
 *
 * Key layout (ids are time-ordered, `core/audit.ts` `auditId`):
 * - `["audit", id]` → {@link AuditEntry}
 * - `["audit_by_actor", actorId, id]` → the entry (admin sign-ins and changes of one person)
 * - `["audit_by_kind", kind, id]` → the entry
 * - `["audit_by_object", object, id]` → the entry
 *
 * Each index holds the entry itself (entries are small) so a filtered page is one range read.
 */
import {
  type AuditEntry,
  type AuditFilter,
  auditId,
  type AuditStamp,
  changes,
  passes,
  timePart,
} from "../core/audit.ts";

/** A random part of an id: 8 bytes as hex. */
function randomPart(): string {
  const b = crypto.getRandomValues(new Uint8Array(8));
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** The entry of a change: the stamp, a fresh id, the before and after of the changed fields. */
export function auditEntry(
  stamp: AuditStamp,
  before: object | null,
  after: object | null,
): AuditEntry {
  return { ...stamp, id: auditId(stamp.at, randomPart()), ...changes(before, after) };
}

/**
 * Adds the entry of a change to `op` (the change's own commit): each key checked absent, so an
 * entry is never overwritten. Answers the entry.
 */
export function stageAudit(
  op: Deno.AtomicOperation,
  stamp: AuditStamp,
  before: object | null,
  after: object | null,
): AuditEntry {
  const entry = auditEntry(stamp, before, after);
  for (const key of keysOf(entry)) op.check({ key, versionstamp: null }).set(key, entry);
  return entry;
}

/** Writes an entry that records no stored change of its own (a sign-in). */
export async function appendAudit(kv: Deno.Kv, stamp: AuditStamp): Promise<AuditEntry> {
  for (;;) {
    const op = kv.atomic();
    const entry = stageAudit(op, stamp, null, null);
    if ((await op.commit()).ok) return entry;
  }
}

function keysOf(e: AuditEntry): Deno.KvKey[] {
  const keys: Deno.KvKey[] = [
    ["audit", e.id],
    ["audit_by_kind", e.kind, e.id],
    ["audit_by_object", e.object, e.id],
  ];
  if (e.actor.id !== null) keys.push(["audit_by_actor", e.actor.id, e.id]);
  return keys;
}

/** The index a filter reads (the narrowest it names) and its key prefix. */
function indexOf(f: AuditFilter): Deno.KvKey {
  if (f.object !== undefined) return ["audit_by_object", f.object];
  if (f.actor !== undefined) return ["audit_by_actor", f.actor];
  if (f.kind !== undefined) return ["audit_by_kind", f.kind];
  return ["audit"];
}

/**
 * A page of entries, newest first: at most `limit` that pass `filter`, older than the entry
 * `before` (a cursor), and the cursor of the next page (null at the end). The date range
 * bounds the read; the other criteria are checked on the index's entries.
 */
export async function listAudit(
  kv: Deno.Kv,
  filter: AuditFilter,
  limit: number,
  before?: string,
): Promise<{ entries: AuditEntry[]; next_cursor: string | null }> {
  const prefix = indexOf(filter);
  const start = [...prefix, filter.from === undefined ? "" : timePart(filter.from)];
  const ends = [
    before === undefined ? null : before,
    filter.to === undefined ? null : timePart(filter.to),
  ].filter((x): x is string => x !== null).sort();
  const end = ends.length ? [...prefix, ends[0]] : [...prefix, "\uffff"];
  const entries: AuditEntry[] = [];
  for await (const e of kv.list<AuditEntry>({ start, end }, { reverse: true, batchSize: 100 })) {
    if (!passes(e.value, filter)) continue;
    if (entries.length === limit) return { entries, next_cursor: entries[limit - 1].id };
    entries.push(e.value);
  }
  return { entries, next_cursor: null };
}
