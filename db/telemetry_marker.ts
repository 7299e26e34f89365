/**
 * That an embedded telemetry store existed, kept in KV: a SQLite file that vanished (deleted,
 * a volume not mounted) would otherwise be recreated empty at the next start, and every
 * reading before it silently lost. The portal refuses to start instead
 * (`services/platform/stores.ts`).
 *
 * KV layout:
 *   ["telemetry_store", "sqlite", path] -> { created_at }   (path: the file, absolute)
 */

const PREFIX = ["telemetry_store", "sqlite"] as const;

/** When the store at `path` was first opened, or null when KV has no record of it. */
export async function telemetryStoreCreatedAt(kv: Deno.Kv, path: string): Promise<number | null> {
  return (await kv.get<{ created_at: number }>([...PREFIX, path])).value?.created_at ?? null;
}

/** Records that the store at `path` exists, once (the first time's instant is kept). */
export async function markTelemetryStore(kv: Deno.Kv, path: string, now: number): Promise<void> {
  const key = [...PREFIX, path];
  await kv.atomic().check({ key, versionstamp: null }).set(key, { created_at: now }).commit();
}

/** Deletes the record of the store at `path` (the next start makes a new, empty store). */
export async function forgetTelemetryStore(kv: Deno.Kv, path: string): Promise<boolean> {
  const had = (await kv.get([...PREFIX, path])).versionstamp !== null;
  await kv.delete([...PREFIX, path]);
  return had;
}
