/**
 * `deno task backup FILE`: writes a backup of the portal whose data folder the environment
 * names (`DATA_DIR`, `DENO_KV_URL`, `QUESTDB_URL`, as the portal's) to FILE (a .tar.gz), while
 * the portal runs (services/platform/backup.ts). Exit status 1 when refused, 2 for bad usage.
 */
import { createBackup } from "../services/platform/backup.ts";
import { runBackupCommand } from "../services/platform/backup_cli.ts";

if (import.meta.main) {
  await runBackupCommand("backup", async (config, file) => {
    const started = performance.now();
    const m = await createBackup(config, file);
    const c = m.counts;
    return `Backup written to ${file} in ${Math.round(performance.now() - started)} ms: ` +
      `${c.users} users, ${c.devices} devices, ${c.zones} zones, ${c.bills} bills, ` +
      `${c.payments} payments, ${c.readings} readings, ${m.files.length} files ` +
      `(schema version ${m.schema_version}).`;
  });
}
