/**
 * Tenancies of units in Deno KV (issue 24; the rules are core/tenancy.ts's).
 *
 * Key layout:
 * - `["tenancies", stationId, unitId, from]` → {@link StoredTenancy}: who held the unit from
 *   `from` (epoch ms), in start order; at most one open (`to` null) per unit
 * - `["tenancies_by_tenant", tenantId, stationId, unitId, from]` → null: a tenant's tenancies
 *   without reading the fleet's
 * - `["tenancies_revision", stationId, unitId]` → the unit's revision: written with every
 *   change of its tenancies, so that a change checked against what was read fails when
 *   another one came first
 * - `["tenancies_all_revision"]` → `Deno.KvU64`: 1 added by every change of any unit's
 *   tenancies (what a page kept by it is checked against)
 *
 * A unit with no tenancy record whose sensor names a tenant (data from before tenancies) is
 * held by that tenant from the beginning ({@link legacyTenancy}).
 */
import type { AuditStamp } from "../core/audit.ts";
import { stageAudit } from "./audit.ts";
import type { Tenancy } from "../core/tenancy.ts";

/** A tenancy as stored. */
export interface StoredTenancy extends Tenancy {
  station_id: number;
  unit_id: string;
  created_at: number;
  updated_at: number;
}

const key = (t: Pick<StoredTenancy, "station_id" | "unit_id" | "from">): Deno.KvKey => [
  "tenancies",
  t.station_id,
  t.unit_id,
  t.from,
];
const tenantKey = (t: StoredTenancy): Deno.KvKey => [
  "tenancies_by_tenant",
  t.tenant_id,
  t.station_id,
  t.unit_id,
  t.from,
];
/** Every unit's tenancies' revision, moved with each unit's (read for pages' ETags). */
export const TENANCIES_REVISION: Deno.KvKey = ["tenancies_all_revision"];

const revisionKey = (stationId: number, unitId: string): Deno.KvKey => [
  "tenancies_revision",
  stationId,
  unitId,
];

/** The tenancy of a unit whose sensor names a tenant but that has no record: all along. */
export function legacyTenancy(
  stationId: number,
  unitId: string,
  tenantId: number,
): StoredTenancy {
  return {
    station_id: stationId,
    unit_id: unitId,
    tenant_id: tenantId,
    from: 0,
    to: null,
    reading_from_kwh: null,
    reading_to_kwh: null,
    created_at: 0,
    updated_at: 0,
  };
}

/** A unit's tenancies as read, with what a change must be checked against. */
export interface UnitTenancies {
  stationId: number;
  unitId: string;
  tenancies: StoredTenancy[];
  revision: Deno.KvEntryMaybe<number>;
}

/** Reads a unit's tenancies, oldest first. */
export async function readUnitTenancies(
  kv: Deno.Kv,
  stationId: number,
  unitId: string,
): Promise<UnitTenancies> {
  const revision = await kv.get<number>(revisionKey(stationId, unitId));
  const tenancies: StoredTenancy[] = [];
  for await (const e of kv.list<StoredTenancy>({ prefix: ["tenancies", stationId, unitId] })) {
    tenancies.push(e.value);
  }
  return { stationId, unitId, tenancies, revision };
}

/** Every tenancy of a station's units: unit id → tenancies, oldest first. */
export async function stationTenancies(
  kv: Deno.Kv,
  stationId: number,
): Promise<Map<string, StoredTenancy[]>> {
  const out = new Map<string, StoredTenancy[]>();
  for await (const e of kv.list<StoredTenancy>({ prefix: ["tenancies", stationId] })) {
    const list = out.get(e.value.unit_id);
    if (list) list.push(e.value);
    else out.set(e.value.unit_id, [e.value]);
  }
  return out;
}

/** A tenant's tenancies, of every unit, oldest key first. */
export async function tenanciesOfTenant(kv: Deno.Kv, tenantId: number): Promise<StoredTenancy[]> {
  const keys: Deno.KvKey[] = [];
  for await (const e of kv.list({ prefix: ["tenancies_by_tenant", tenantId] })) {
    keys.push(["tenancies", ...e.key.slice(2)]);
  }
  const out: StoredTenancy[] = [];
  for (let i = 0; i < keys.length; i += 10) {
    for (const e of await kv.getMany<StoredTenancy[]>(keys.slice(i, i + 10))) {
      if (e.value && e.value.tenant_id === tenantId) out.push(e.value);
    }
  }
  return out;
}

/**
 * Replaces a unit's tenancies by `next` in ONE atomic commit, checked against `read`: false
 * when they changed meanwhile (read again and retry).
 */
export async function writeUnitTenancies(
  kv: Deno.Kv,
  read: UnitTenancies,
  next: readonly StoredTenancy[],
  audit?: AuditStamp,
): Promise<boolean> {
  const op = kv.atomic().check(read.revision);
  if (audit) {
    stageAudit(op, audit, { tenancies: read.tenancies }, { tenancies: next });
  }
  const kept = new Set(next.map((t) => tenantKey(t).join("|")));
  for (const t of read.tenancies) {
    if (!kept.has(tenantKey(t).join("|"))) op.delete(tenantKey(t));
    if (!next.some((n) => n.from === t.from)) op.delete(key(t));
  }
  for (const t of next) op.set(key(t), t).set(tenantKey(t), null);
  op.set(revisionKey(read.stationId, read.unitId), (read.revision.value ?? 0) + 1);
  op.sum(TENANCIES_REVISION, 1n);
  return (await op.commit()).ok;
}
