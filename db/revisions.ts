/**
 * The revisions kept with the writes of their families, read together: what a page kept in
 * memory, or a browser's copy of it (its ETag), is checked against with one read. Each key is
 * its family's writer's (this file only reads them); a key moves (a new versionstamp) with
 * every commit that writes its family.
 */
import { REVISION_KEY as DEVICES_REVISION } from "./_device_keys.ts";
import { REVISION_KEY as STATUS_REVISION } from "./_status_keys.ts";
import { BILLS_REVISION } from "./_bill_keys.ts";
import { ZONES_REVISION } from "./zones.ts";
import { ALERTS_REVISION } from "./alerts.ts";
import { ALERT_RULES_REVISION } from "./alert_rules.ts";
import { USERS_REVISION } from "./users.ts";
import { ACCESS_CODES_REVISION } from "./access_codes.ts";
import { READINGS_REVISION } from "./readings_revision.ts";
import { TENANCIES_REVISION } from "./tenancies.ts";
import { INVOICES_REVISION } from "./invoices.ts";

/** The families with a revision of their own, by name. */
const FAMILIES = {
  devices: DEVICES_REVISION,
  statuses: STATUS_REVISION,
  bills: BILLS_REVISION,
  zones: ZONES_REVISION,
  alerts: ALERTS_REVISION,
  alert_rules: ALERT_RULES_REVISION,
  users: USERS_REVISION,
  access_codes: ACCESS_CODES_REVISION,
  readings: READINGS_REVISION,
  tenancies: TENANCIES_REVISION,
  invoices: INVOICES_REVISION,
} as const;

/** A family of records with a revision. */
export type Family = keyof typeof FAMILIES;

/** Keys a single `getMany` may read (Deno KV's limit). */
const GET_MANY = 10;

/**
 * The versionstamps of the families' revisions and of `more` keys (other revisions: a user's
 * notifications, a unit's tenancies), in order; "-" for one never written.
 */
export async function readRevisions(
  kv: Deno.Kv,
  families: readonly Family[],
  more: readonly Deno.KvKey[] = [],
): Promise<string[]> {
  const keys = [...families.map((f) => FAMILIES[f]), ...more];
  const chunks: Deno.KvKey[][] = [];
  for (let i = 0; i < keys.length; i += GET_MANY) chunks.push(keys.slice(i, i + GET_MANY));
  const read = await Promise.all(chunks.map((c) => kv.getMany(c)));
  return read.flat().map((e) => e.versionstamp ?? "-");
}
