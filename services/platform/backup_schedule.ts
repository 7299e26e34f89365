/**
 * The portal's own backups (`BACKUP_DIR`, every `BACKUP_EVERY_HOURS`, the newest `BACKUP_KEEP`
 * kept): `portal-<UTC time>.tar.gz` in the folder, the oldest ones deleted after each new one.
 */
import type { Deps } from "../deps.ts";
import { createBackup } from "./backup.ts";

const NAME = /^portal-\d{8}T\d{6}Z\.tar\.gz$/;

/** The archive's name for `now`: sorts by time. */
export function backupName(now: number): string {
  return `portal-${
    new Date(now).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")
  }.tar.gz`;
}

/** Makes one backup into `dir` and deletes the oldest beyond `keep`; answers the new path. */
export async function backupAndRotate(deps: Deps, dir: string, keep: number): Promise<string> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const path = `${dir}/${backupName(deps.now())}`;
  await createBackup(deps.config, path, deps.now());
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.isFile && NAME.test(e.name)) names.push(e.name);
  names.sort();
  for (const old of names.slice(0, Math.max(0, names.length - keep))) {
    await Deno.remove(`${dir}/${old}`).catch(() => {});
  }
  return path;
}

/** Starts the schedule when `BACKUP_DIR` is set (the first backup one interval after start). */
export function startBackupSchedule(deps: Deps): { stop(): void } {
  const settings = deps.config.backup;
  if (!settings?.dir) return { stop() {} };
  const { dir, everyHours, keep } = settings;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    backupAndRotate(deps, dir, keep)
      .then((path) => deps.log.log("info", "backup written", { path }))
      .catch((e) => deps.log.log("error", "backup failed", { error: String(e) }))
      .finally(() => (running = false));
  }, everyHours * 3_600_000);
  return { stop: () => clearInterval(timer) };
}
