/**
 * `deno task telemetry-forget`: forgets that the embedded telemetry store existed. The portal
 * refuses to start when the store's file is missing but KV says it existed (every reading
 * before would silently be gone); after this, the next start makes a new, empty store.
 * Exits 0, or 2 for a bad configuration.
 */
import { printErr, printOut, scriptConfig } from "./_deps.ts";
import { forgetTelemetry, telemetryPath } from "../services/platform/stores.ts";

async function main(): Promise<number> {
  const config = scriptConfig(printErr);
  if (!config) return 2;
  const had = await forgetTelemetry(config);
  printOut(
    had
      ? `Forgot the telemetry store ${
        telemetryPath(config)
      }: the next start makes a new, empty one.`
      : `No record of a telemetry store ${telemetryPath(config)}: nothing to forget.`,
  );
  return 0;
}

if (import.meta.main) Deno.exit(await main());
