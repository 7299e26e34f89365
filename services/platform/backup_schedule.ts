/**
 * The portal's own backups (`BACKUP_DIR`, every `BACKUP_EVERY_HOURS`, the newest `BACKUP_KEEP`
 * kept): `portal-<UTC time>.tar.gz` in the folder, the oldest ones deleted after each new one.
 */
import { Worker } from "node:worker_threads";
import type { Deps } from "../deps.ts";
import type { Config } from "./config.ts";
import type { BackupManifest } from "./backup.ts";
import type { BackupAnswer, BackupJob } from "./backup_worker.ts";
import { runAsSingleton } from "./singleton.ts";

const NAME = /^portal-\d{8}T\d{6}Z\.tar\.gz$/;

/** The archive's name for `now`: sorts by time. */
export function backupName(now: number): string {
  return `portal-${
    new Date(now).toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")
  }.tar.gz`;
}

/** Runs `createBackup` on a thread of its own (`backup_worker.ts`) and answers its manifest. */
export function backupOffThread(
  config: Config,
  target: string,
  now: number,
): Promise<BackupManifest> {
  const { publicUrl: _, ...plain } = config;
  const job: BackupJob = { config: plain, target, now };
  const worker = new Worker(new URL("./backup_worker.ts", import.meta.url));
  return new Promise<BackupManifest>((resolve, reject) => {
    worker.once(
      "message",
      (a: BackupAnswer) => "error" in a ? reject(new Error(a.error)) : resolve(a.manifest),
    );
    worker.once("error", reject);
    worker.postMessage(job);
  }).finally(() => worker.terminate());
}

/** Makes one backup into `dir` and deletes the oldest beyond `keep`; answers the new path. */
export async function backupAndRotate(deps: Deps, dir: string, keep: number): Promise<string> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const path = `${dir}/${backupName(deps.now())}`;
  await backupOffThread(deps.config, path, deps.now());
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) if (e.isFile && NAME.test(e.name)) names.push(e.name);
  names.sort();
  for (const old of names.slice(0, Math.max(0, names.length - keep))) {
    await Deno.remove(`${dir}/${old}`).catch(() => {});
  }
  return path;
}

/**
 * Starts the schedule when `BACKUP_DIR` is set: one process at a time makes the backups (the
 * `backup` lease, singleton.ts), on a schedule kept in the store (the first backup one interval
 * after the first start). Idempotent on its own: a backup is a new file named by its time, and
 * the rotation keeps the newest `keep`, so a repeated run costs a file, never loses one.
 */
export function startBackupSchedule(deps: Deps): { stop(): Promise<void> } {
  const settings = deps.config.backup;
  if (!settings?.dir) return { stop: () => Promise.resolve() };
  const { dir, everyHours, keep } = settings;
  return runAsSingleton(deps, "backup", everyHours * 3_600_000, async () => {
    await backupAndRotate(deps, dir, keep)
      .then((path) => deps.log.log("info", "backup written", { path }))
      .catch((e) => deps.log.log("error", "backup failed", { error: String(e) }));
  }, { firstAfterInterval: true });
}
