/**
 * The stores and services of a command-line script (`deno task bill`, `ingest`, `provision`),
 * opened from the configuration as `main.ts` opens them: Deno KV, the telemetry store, the
 * portal's secret and certificate authority. Scripts render nothing, so the build output is
 * optional.
 */
import { type Config, ConfigError, loadConfig } from "../services/platform/config.ts";
import type { Deps } from "../services/deps.ts";
import type { Logger } from "../services/platform/log.ts";
import { openKv } from "../db/kv.ts";
import { loadI18n } from "../services/platform/i18n.ts";
import { type Assets, BUILD_DIR, loadAssets } from "../components/assets.ts";
import { loadOrCreateSecret } from "../services/platform/secret.ts";
import { DEFAULT_THROTTLE } from "../db/throttle.ts";
import { openTelemetry } from "../db/telemetry/open.ts";
import { openCertificateAuthority } from "../services/platform/pki.ts";

/** The configuration from the environment, or null once `err` was told what is wrong. */
export function scriptConfig(err: (line: string) => void): Config | null {
  try {
    return loadConfig(Deno.env.toObject());
  } catch (e) {
    if (e instanceof ConfigError) {
      err(e.message);
      return null;
    }
    throw e;
  }
}

/** A script's dependencies and how to close them. */
export interface ScriptDeps {
  deps: Deps;
  close(): Promise<void>;
}

/** Opens what a script needs from `config`. */
export async function openScriptDeps(config: Config, log: Logger): Promise<ScriptDeps> {
  await Deno.mkdir(config.dataDir, { recursive: true });
  const kv = await openKv(config.kvPath);
  const telemetry = await openTelemetry({
    questdbUrl: config.telemetry.questdbUrl,
    sqlitePath: `${config.dataDir}/telemetry.sqlite`,
    rawRetentionDays: config.telemetry.rawRetentionDays,
    onError: (error) =>
      log.log("error", "telemetry failed", {
        error: error instanceof Error ? error.message : String(error),
      }),
  });
  try {
    const assets: Assets = await loadAssets().catch(() => ({
      dir: BUILD_DIR,
      manifest: { css: "", islands: {} },
    }));
    const deps: Deps = {
      kv,
      config,
      i18n: await loadI18n(),
      assets,
      secret: config.jwtSecret ?? await loadOrCreateSecret(config.dataDir),
      now: Date.now,
      log,
      throttle: DEFAULT_THROTTLE,
      telemetry,
      pki: await openCertificateAuthority(config.dataDir),
    };
    return {
      deps,
      async close() {
        await telemetry.close();
        kv.close();
      },
    };
  } catch (e) {
    await telemetry.close();
    kv.close();
    throw e;
  }
}
