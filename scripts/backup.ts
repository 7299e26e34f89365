/**
 * `deno task backup FILE`: writes a backup of the portal whose data folder the environment
 * names (`DATA_DIR`, `DENO_KV_URL`, `QUESTDB_URL`, as the portal's) to FILE (a .tar.gz), while
 * the portal runs (services/platform/backup.ts). Exit status 1 when refused, 2 for bad usage.
 */
import { ConfigError, loadConfig } from "../services/platform/config.ts";
import { BackupRefused, createBackup } from "../services/platform/backup.ts";

const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
const fail = (line: string, code: number): never => {
  Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
  Deno.exit(code);
};

if (import.meta.main) {
  const [file] = Deno.args;
  if (!file || Deno.args.length !== 1) fail("Usage: deno task backup FILE.tar.gz", 2);
  let config;
  try {
    config = loadConfig(Deno.env.toObject());
  } catch (e) {
    if (e instanceof ConfigError) fail(e.message, 2);
    throw e;
  }
  try {
    const started = performance.now();
    const m = await createBackup(config!, file);
    const c = m.counts;
    out(
      `Backup written to ${file} in ${Math.round(performance.now() - started)} ms: ` +
        `${c.users} users, ${c.devices} devices, ${c.zones} zones, ${c.bills} bills, ` +
        `${c.payments} payments, ${c.readings} readings, ${m.files.length} files ` +
        `(schema version ${m.schema_version}).`,
    );
  } catch (e) {
    if (e instanceof BackupRefused) fail(e.message, 1);
    throw e;
  }
}
