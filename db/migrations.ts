/**
 * The shape of the stored data, versioned: a schema version in KV and the steps that bring an
 * older data folder to this release's shape, each run once, in order, at start.
 *
 * Key layout:
 * - `["schema", "version"]` → number: the last step applied (absent: a data folder written
 *   before versions were kept, version 0)
 * - `["schema", "lock"]` → epoch ms: a process is applying steps (expires after a minute, so a
 *   process killed mid-way does not hold it)
 *
 * A step must leave the data right when run again (a process killed between a step and the
 * write of its version runs it again at the next start). A data folder whose version is newer
 * than this release knows is refused: an older portal must not write a shape it does not know.
 */

/** One step: from `version - 1` to `version`. */
export interface Migration {
  version: number;
  /** What it changes, for the log. */
  name: string;
  run(kv: Deno.Kv): Promise<void>;
}

const VERSION_KEY: Deno.KvKey = ["schema", "version"];
const LOCK_KEY: Deno.KvKey = ["schema", "lock"];
const LOCK_MS = 60_000;

/**
 * This release's steps. 1: the shape of the release before schema versions were kept, which
 * this release reads as it is (older bill shapes are read on load, `core/bill_details.ts`);
 * the step only records the version. A change of shape adds the next step here, with a test
 * that writes the shape before it (`tests/migrations_test.ts`).
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "versions recorded", run: () => Promise.resolve() },
];

/** The version this release writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

/** Thrown when the data folder was written by a newer release. */
export class SchemaTooNew extends Error {
  constructor(readonly stored: number, readonly known: number) {
    super(
      `The data was written by a newer version of the portal (schema version ${stored}; this ` +
        `version knows up to ${known}). Start the newer version again, or restore a backup ` +
        "made by this version.",
    );
    this.name = "SchemaTooNew";
  }
}

/** The stored schema version (0 when none is stored). */
export async function storedSchemaVersion(kv: Deno.Kv): Promise<number> {
  return (await kv.get<number>(VERSION_KEY)).value ?? 0;
}

/** What {@link migrate} did. */
export interface MigrationResult {
  from: number;
  to: number;
  applied: string[];
}

/**
 * Applies the steps of `migrations` above the stored version, in order, each followed by the
 * write of its version; one process at a time (others wait for the lock). Throws
 * {@link SchemaTooNew} when the stored version is above the last step.
 */
export async function migrate(
  kv: Deno.Kv,
  migrations: readonly Migration[] = MIGRATIONS,
  now: () => number = Date.now,
): Promise<MigrationResult> {
  const known = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  const from = await storedSchemaVersion(kv);
  if (from > known) throw new SchemaTooNew(from, known);
  if (from === known) return { from, to: from, applied: [] };
  const owner = crypto.randomUUID();
  for (;;) {
    const lock = await kv.get<{ owner: string; until: number }>(LOCK_KEY);
    if (lock.value === null || lock.value.until < now()) {
      const res = await kv.atomic().check(lock)
        .set(LOCK_KEY, { owner, until: now() + LOCK_MS }, { expireIn: LOCK_MS }).commit();
      if (res.ok) break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const applied: string[] = [];
  try {
    let version = await storedSchemaVersion(kv);
    if (version > known) throw new SchemaTooNew(version, known);
    for (const m of migrations) {
      if (m.version <= version) continue;
      await m.run(kv);
      await kv.set(VERSION_KEY, m.version);
      version = m.version;
      applied.push(m.name);
    }
    return { from, to: version, applied };
  } finally {
    const lock = await kv.get<{ owner: string }>(LOCK_KEY);
    if (lock.value?.owner === owner) await kv.atomic().check(lock).delete(LOCK_KEY).commit();
  }
}
