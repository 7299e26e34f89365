/**
 * What a command-line script (`deno task bill`, `ingest`, `provision`) starts from: the
 * configuration from the environment, and the stores opened as `main.ts` opens them
 * (`services/platform/stores.ts`). Scripts render nothing, so they need no browser build.
 */
import { type Config, ConfigError, loadConfig } from "../services/platform/config.ts";
import { type OpenedStores, openStores } from "../services/platform/stores.ts";

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
export type ScriptDeps = OpenedStores;

/** Opens what a script needs from `config` (the same stores as `main.ts`). */
export const openScriptDeps: typeof openStores = openStores;
