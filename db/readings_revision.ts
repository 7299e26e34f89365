/**
 * The revision of readings written by hand or for a handover (past readings the meters did not
 * send now): what a page kept by its meters' newest reading would miss.
 *
 * Key layout:
 * - `["readings_revision"]` → `Deno.KvU64`: 1 added once such readings are durable and visible
 */

/** The key of the revision (read with the others, `db/revisions.ts`). */
export const READINGS_REVISION: Deno.KvKey = ["readings_revision"];

/** Moves the revision: readings of the past were written. */
export async function readingsWritten(kv: Deno.Kv): Promise<void> {
  await kv.atomic().sum(READINGS_REVISION, 1n).commit();
}
