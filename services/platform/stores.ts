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
import { DEFAULT_THROTTLE } from "../../db/throttle.ts";
import { openTelemetry } from "../../db/telemetry/open.ts";

/** The opened dependencies and how to close their stores. */
export interface OpenedStores {
  deps: Deps;
  close(): Promise<void>;
}

/**
 * Opens the stores of `config` (creating its data directory, 0700, its files 0600) and builds the services'
 * dependencies; throws `CertificateAuthorityError` before anything is opened when the
 * certificate authority cannot be read.
 */
export async function openStores(config: Config, log: Logger): Promise<OpenedStores> {
  await Deno.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await Deno.chmod(config.dataDir, 0o700);
  const pki = await openCertificateAuthority(config.dataDir);
  const kv = await openKv(config.kvPath);
  const telemetry = await openTelemetry({
    questdbUrl: config.telemetry.questdbUrl,
    sqlitePath: `${config.dataDir}/telemetry.sqlite`,
    rawRetentionDays: config.telemetry.rawRetentionDays,
    onError: (error) =>
      log.log("error", "telemetry write failed", {
        error: error instanceof Error ? error.message : String(error),
      }),
  });
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
    return { deps, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Makes the data directory's files readable and writable by the portal's user only. */
async function restrictFiles(dir: string): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) await Deno.chmod(`${dir}/${entry.name}`, 0o600);
  }
}
