/**
 * `deno task ingest`: MQTT ingest as its own process, beside the portal (which then runs
 * with `INGEST=off`). Several of these processes split the load with
 * `INGEST_SHARE_GROUP` (a shared subscription, `$share/<group>/...`: MQTT 5 on an
 * external broker, MQTT 3.1.1 on the portal's embedded broker; each process needs its own
 * `INGEST_CLIENT_ID`).
 *
 * Environment (see services/platform/config.ts): `MQTT_URL` (default: the portal's embedded broker
 * at `mqtt://127.0.0.1:$MQTT_PORT`), `MQTT_USERNAME` / `MQTT_PASSWORD` (ingest's own
 * credentials), `INGEST_SHARE_GROUP`, `DEVICE_SILENCE_SECONDS`, `DATA_DIR` / `DENO_KV_URL`
 * (the devices and their status), `QUESTDB_URL` (else SQLite in the data folder),
 * `LOG_LEVEL`; and `INGEST_CLIENT_ID` (the persistent session's id; default
 * `portal-ingest-<hostname>`). It judges the reading alert rules on what it ingests, as the
 * portal's own ingest does (the rules read from the same KV again once their revision moved).
 */
import type { Config } from "../services/platform/config.ts";
import { createLogger, type Logger } from "../services/platform/log.ts";
import {
  createDeviceDirectory,
  createStatusService,
  isTlsUrl,
  portalTls,
} from "../services/devices/mod.ts";
import type { ClientTls } from "../services/platform/mqtt_connect.ts";
import { runIngest, type RunIngestDeps } from "../ingest/run.ts";
import { scriptConfig } from "./_deps.ts";
import { openStores } from "../services/platform/stores.ts";
import { readyEvaluator } from "../services/alerts/mod.ts";
import { startTelemetryPrune } from "../services/platform/telemetry_prune.ts";

/** The real dependencies of ingest, and how to close them. */
interface IngestWiring extends RunIngestDeps {
  /** For an `mqtts://` broker: the portal's CA and its own client certificate. */
  tls?: ClientTls;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------
// WIRING: the KV-backed directory and status sink and the telemetry store. This is the
// one place that knows which implementations ingest runs on.
// ---------------------------------------------------------------------------------------
async function openIngestDeps(config: Config, log: Logger): Promise<IngestWiring> {
  const opened = await openStores(config, log);
  const { deps } = opened;
  const status = createStatusService(deps);
  // The reading alert rules, as the portal's own ingest judges them (rules read from the same KV).
  const alerts = await readyEvaluator(deps);
  // Ingest writes the telemetry store, so it prunes it too (one writer at a time).
  const prune = startTelemetryPrune(deps);
  return {
    directory: createDeviceDirectory(deps),
    status,
    store: deps.telemetry,
    log,
    kv: deps.kv,
    onSamples: alerts.samples,
    onFlush: alerts.revalidate,
    tls: config.mqtt.url && isTlsUrl(config.mqtt.url) ? await portalTls(deps) : undefined,
    async close() {
      await alerts.stop();
      await prune.stop();
      await status.close();
      await opened.close();
    },
  };
}
// ---------------------------------------------------------------------------------------

async function main() {
  const config = scriptConfig((line) =>
    Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"))
  );
  if (!config) Deno.exit(2);
  const log = createLogger(config.logLevel);
  const wiring = await openIngestDeps(config, log);
  const running = runIngest(wiring, {
    url: config.mqtt.url ?? `mqtt://127.0.0.1:${config.mqtt.port}`,
    username: config.mqtt.username ?? undefined,
    password: config.mqtt.password ?? undefined,
    tls: wiring.tls,
    clientId: Deno.env.get("INGEST_CLIENT_ID") || `portal-ingest-${Deno.hostname()}`,
    shareGroup: config.mqtt.shareGroup ?? undefined,
    // The portal's embedded broker speaks MQTT 3.1.1 (its shared subscriptions too).
    protocolVersion: config.mqtt.url ? undefined : 4,
    silenceMs: config.mqtt.silenceSeconds * 1000,
  });

  const done = Promise.withResolvers<void>();
  const stop = () => done.resolve();
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await done.promise;
  log.log("info", "ingest shutting down");
  await running.stop();
  await wiring.close();
  Deno.removeSignalListener("SIGINT", stop);
  Deno.removeSignalListener("SIGTERM", stop);
}

if (import.meta.main) await main();
