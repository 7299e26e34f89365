/**
 * What a command-line script (`deno task bill`, `ingest`, `provision`) starts from: the
 * configuration from the environment, and the stores opened as `main.ts` opens them
 * (`services/platform/stores.ts`). Scripts render nothing, so they need no browser build.
 */
import { type Config, ConfigError, loadConfig } from "../services/platform/config.ts";
import { openStores } from "../services/platform/stores.ts";
import { createLogger } from "../services/platform/log.ts";
import type { Deps } from "../services/deps.ts";
import { TelemetryStoreRefused } from "../db/telemetry/mod.ts";

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

/** Opens what a script needs from `config` (the same stores as `main.ts`). */
const openScriptDeps: typeof openStores = openStores;

const enc = new TextEncoder();

/** Prints a line on standard output. */
export const printOut = (line: string) => {
  Deno.stdout.writeSync(enc.encode(line + "\n"));
};

/** Prints a line on standard error. */
export const printErr = (line: string) => {
  Deno.stderr.writeSync(enc.encode(line + "\n"));
};

/**
 * Runs a script's `work` with the stores of the environment's configuration and closes them
 * however it ends; its exit code, or 2 when the configuration is wrong or the telemetry store
 * is refused (told on stderr).
 */
export async function runWithStores(work: (deps: Deps) => Promise<number>): Promise<number> {
  const config = scriptConfig(printErr);
  if (!config) return 2;
  let opened;
  try {
    opened = await openScriptDeps(config, createLogger(config.logLevel));
  } catch (e) {
    if (!(e instanceof TelemetryStoreRefused)) throw e;
    printErr(e.message);
    return 2;
  }
  try {
    return await work(opened.deps);
  } finally {
    await opened.close();
  }
}
