/**
 * `deno task restore FILE`: restores a backup made by `deno task backup` into the data folder
 * the environment names (`DATA_DIR`, and `DENO_KV_URL` when the KV file lives elsewhere), which
 * must be empty; checks every file against the manifest's checksums first and writes nothing
 * when one does not match (services/platform/backup_restore.ts). Exit status 1 when refused.
 */
import { restoreBackup } from "../services/platform/backup_restore.ts";
import { runBackupCommand } from "../services/platform/backup_cli.ts";

if (import.meta.main) {
  await runBackupCommand("restore", async (config, file) => {
    const m = await restoreBackup(file, config);
    return `Restored ${m.files.length} files of the backup of ${m.created_at} into ` +
      `${config.dataDir} (schema version ${m.schema_version}); start the portal on it.`;
  });
}
