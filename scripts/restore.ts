/**
 * `deno task restore FILE`: restores a backup made by `deno task backup` into the data folder
 * the environment names (`DATA_DIR`, and `DENO_KV_URL` when the KV file lives elsewhere), which
 * must be empty; checks every file against the manifest's checksums first and writes nothing
 * when one does not match (services/platform/backup_restore.ts). Exit status 1 when refused.
 */
import { ConfigError, loadConfig } from "../services/platform/config.ts";
import { BackupRefused } from "../services/platform/backup.ts";
import { restoreBackup } from "../services/platform/backup_restore.ts";

const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
const fail = (line: string, code: number): never => {
  Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
  Deno.exit(code);
};

if (import.meta.main) {
  const [file] = Deno.args;
  if (!file || Deno.args.length !== 1) fail("Usage: deno task restore FILE.tar.gz", 2);
  let config;
  try {
    config = loadConfig(Deno.env.toObject());
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message, 2);
    throw e;
  }
  try {
    const m = await restoreBackup(file, config!);
    out(
      `Restored ${m.files.length} files of the backup of ${m.created_at} into ` +
        `${config!.dataDir} (schema version ${m.schema_version}); start the portal on it.`,
    );
  } catch (e) {
    if (e instanceof BackupRefused) fail(e.message, 1);
    throw e;
  }
}
