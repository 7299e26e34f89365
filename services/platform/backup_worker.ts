/**
 * The portal's own backups run here, on a thread of their own (`backup_schedule.ts`): SQLite's
 * copy and counts are synchronous calls, which would otherwise hold up the thread that serves
 * HTTP, the broker and ingest for as long as the copy of a large telemetry store takes.
 */
import { parentPort } from "node:worker_threads";
import type { Config } from "./config.ts";
import { type BackupManifest, createBackup } from "./backup.ts";

/** A backup asked of the worker (the configuration without its URL object). */
export interface BackupJob {
  config: Omit<Config, "publicUrl">;
  target: string;
  now: number;
}

/** The worker's answer. */
export type BackupAnswer = { manifest: BackupManifest } | { error: string };

parentPort?.once("message", async (job: BackupJob) => {
  let answer: BackupAnswer;
  try {
    const config: Config = { ...job.config, publicUrl: null };
    answer = { manifest: await createBackup(config, job.target, job.now) };
  } catch (e) {
    answer = { error: e instanceof Error ? e.message : String(e) };
  }
  parentPort?.postMessage(answer);
});
