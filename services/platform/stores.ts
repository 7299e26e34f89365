/**
 * Opens what every use case is built from, from the configuration, in one place for
 * `main.ts` and every script: the portal's certificate authority, Deno KV, the telemetry
 * store, the locales and the secret that signs tokens. Nothing here renders, so the browser
 * build is not needed (the app adds its assets itself, see `routes/_deps.ts`).
 */
import type { Config } from "./config.ts";
import type { Deps } from "../deps.ts";
import type { Logger } from "./log.ts";
import { loadI18n } from "./i18n.ts";
import { loadOrCreateSecret } from "./secret.ts";
import { openCertificateAuthority } from "./pki.ts";
import { openKv } from "../../db/kv.ts";
import { migrate, SchemaTooNew } from "../../db/migrations.ts";
import { DEFAULT_THROTTLE } from "../../db/throttle.ts";
import { openTelemetry } from "../../db/telemetry/open.ts";
import { TelemetryStoreRefused } from "../../db/telemetry/mod.ts";
import {
  forgetTelemetryStore,
  markTelemetryStore,
  telemetryStoreCreatedAt,
} from "../../db/telemetry_marker.ts";
import { resolve } from "node:path";
import { withTimedStores } from "./timing.ts";

export { SchemaTooNew, TelemetryStoreRefused };

/** The opened dependencies and how to close their stores. */
interface OpenedStores {
  deps: Deps;
  close(): Promise<void>;
}

/** How a process uses the stores. */
interface StoresOptions {
  /**
   * Only read the SQLite telemetry file (a portal beside the ingest process, which writes it):
   * refused when the file is not there yet; no effect with QuestDB.
   */
  readTelemetryOnly?: boolean;
}

/**
 * Opens the stores of `config` (creating its data directory, 0700, its files 0600) and builds the services'
 * dependencies; throws `CertificateAuthorityError` before anything is opened when the
 * certificate authority cannot be read, and `TelemetryStoreRefused` (with KV closed again) when
 * the telemetry store's file is damaged, or missing while KV records that it existed, and
 * `SchemaTooNew` when a newer release wrote the data.
 */
export async function openStores(
  config: Config,
  log: Logger,
  o: StoresOptions = {},
): Promise<OpenedStores> {
  await Deno.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await Deno.chmod(config.dataDir, 0o700);
  const pki = await openCertificateAuthority(config.dataDir);
  const kv = await openKv(config.kvPath);
  const sqlitePath = telemetryPath(config);
  let telemetry;
  try {
    // An older data folder is brought to this release's shape once (db/migrations.ts).
    const migrated = await migrate(kv);
    if (migrated.applied.length > 0) log.log("info", "data migrated", { ...migrated });
    if (!config.telemetry.questdbUrl) await checkStoreExists(kv, sqlitePath);
    telemetry = await openTelemetry({
      questdbUrl: config.telemetry.questdbUrl,
      sqlitePath,
      readOnly: o.readTelemetryOnly,
      rawRetentionDays: config.telemetry.rawRetentionDays,
      onError: (error) =>
        log.log("error", "telemetry write failed", {
          error: error instanceof Error ? error.message : String(error),
        }),
    });
    if (!config.telemetry.questdbUrl) await markTelemetryStore(kv, sqlitePath, Date.now());
  } catch (e) {
    await telemetry?.close();
    kv.close();
    throw e;
  }
  await restrictFiles(config.dataDir);
  const close = async () => {
    await telemetry.close();
    kv.close();
  };
  try {
    const deps: Deps = {
      kv,
      config,
      i18n: await loadI18n(),
      secret: config.jwtSecret ?? await loadOrCreateSecret(config.dataDir),
      now: Date.now,
      log,
      throttle: DEFAULT_THROTTLE,
      telemetry,
      pki,
    };
    // With Server-Timing on, every KV read and store query adds to its request's account.
    return { deps: config.serverTiming ? withTimedStores(deps) : deps, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** The embedded telemetry store's file of `config`, absolute. */
export function telemetryPath(config: Config): string {
  return resolve(`${config.dataDir}/telemetry.sqlite`);
}

/**
 * Forgets that the embedded telemetry store of `config` existed, so that the next start makes
 * a new, empty one where the file is missing; true when there was a record.
 */
export async function forgetTelemetry(config: Config): Promise<boolean> {
  const kv = await openKv(config.kvPath);
  try {
    return await forgetTelemetryStore(kv, telemetryPath(config));
  } finally {
    kv.close();
  }
}

/** Throws when KV records a telemetry store at `path` and no file is there any more. */
async function checkStoreExists(kv: Deno.Kv, path: string): Promise<void> {
  const createdAt = await telemetryStoreCreatedAt(kv, path);
  if (createdAt === null) return;
  try {
    await Deno.stat(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
    throw new TelemetryStoreRefused(
      `The telemetry store ${path} is missing, but it existed (created ` +
        `${new Date(createdAt).toISOString()}). The portal does not start an empty store in ` +
        "its place, which would hide every reading before: restore the file from a backup " +
        "(or mount the volume that holds it). To start anew without that history, delete " +
        "the store's record with `deno task telemetry-forget`.",
    );
  }
}

/** Makes the data directory's files readable and writable by the portal's user only. */
async function restrictFiles(dir: string): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) await Deno.chmod(`${dir}/${entry.name}`, 0o600);
  }
}
