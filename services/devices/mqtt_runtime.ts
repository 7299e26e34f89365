/**
 * The portal's MQTT side inside one process: the embedded broker (when no external broker
 * is configured) and ingest (unless it runs as its own process), wired to the KV-backed
 * device directory and status, and to the telemetry store.
 */
import type { Deps } from "../deps.ts";
import { createDeviceDirectory, createStatusService } from "./status.ts";
import { isTlsUrl, portalTls } from "./provisioning.ts";
import { loadOrCreateSecret } from "../platform/secret.ts";
import { type BrokerTls, type EmbeddedBroker, startEmbeddedBroker } from "../../ingest/broker.ts";
import { runIngest, type RunningIngest } from "../../ingest/run.ts";
import { readyEvaluator } from "../alerts/evaluator.ts";

/** User name of the ingest client on the embedded broker when none is configured. */
const INGEST_USERNAME = "portal-ingest";

/** The ingest client's credentials: configured ones, or a generated password kept in DATA_DIR. */
async function ingestCredentials(
  deps: Deps,
): Promise<{ username: string; password: string }> {
  const { username, password } = deps.config.mqtt;
  if (username && password) return { username, password };
  return {
    username: username ?? INGEST_USERNAME,
    password: password ?? await loadOrCreateSecret(deps.config.dataDir, "mqtt-ingest.key"),
  };
}

/** Days the embedded broker's server certificate (issued at each start) is valid. */
const SERVER_CERT_DAYS = 397;

/** The embedded broker's TLS listener: a server certificate from the portal's CA; null when off. */
export async function brokerTls(deps: Deps): Promise<BrokerTls | undefined> {
  const { tlsPort, tlsHosts, requireClientCert } = deps.config.mqtt;
  if (tlsPort === 0) return undefined;
  const server = await deps.pki.issueServer(tlsHosts, SERVER_CERT_DAYS);
  return {
    port: tlsPort,
    certPem: server.cert_pem,
    keyPem: server.key_pem,
    caPem: deps.pki.caPem,
    requireClientCert,
  };
}

/** What runs, and how to stop it. */
interface MqttRuntime {
  broker: EmbeddedBroker | null;
  ingest: RunningIngest | null;
  /** Where devices connect (the external URL or the embedded broker's). */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the embedded broker (no MQTT_URL) and ingest (INGEST=on). With both in this process
 * and no share group, ingest is attached to the broker: the broker hands it each device's
 * message and acknowledges a QoS 1 publish only once the reading is stored. Otherwise
 * ingest subscribes over MQTT like any client.
 */
export async function startMqtt(deps: Deps): Promise<MqttRuntime> {
  const { config, log } = deps;
  const directory = createDeviceDirectory(deps);
  const creds = await ingestCredentials(deps);
  const embedded = !config.mqtt.url;
  const attached = embedded && config.mqtt.ingest && !config.mqtt.shareGroup;
  const clientTls = config.mqtt.url && isTlsUrl(config.mqtt.url)
    ? await portalTls(deps)
    : undefined;
  let ingest: RunningIngest | null = null;
  const broker = embedded
    ? await startEmbeddedBroker({
      port: config.mqtt.port,
      hostname: config.mqtt.hostname,
      directory,
      ingestCredentials: creds,
      log,
      maxPacketBytes: config.mqtt.maxPacketBytes,
      tls: await brokerTls(deps),
      receive: attached
        ? (topic, payload) =>
          ingest ? ingest.ingest.receive(topic, payload) : Promise.reject(new Error("starting"))
        : undefined,
    })
    : null;
  const url = config.mqtt.url ?? `mqtt://127.0.0.1:${broker!.port}`;
  const status = config.mqtt.ingest ? createStatusService(deps) : null;
  // The reading alert rules, judged in ingest's path from rules kept in memory.
  const alerts = status ? await readyEvaluator(deps) : null;
  ingest = status
    ? runIngest({
      directory,
      status,
      store: deps.telemetry,
      log,
      kv: deps.kv,
      onSamples: alerts?.samples,
      onFlush: alerts?.revalidate,
    }, {
      url,
      ...creds,
      tls: clientTls,
      attached,
      // The embedded broker speaks MQTT 3.1.1; its shared subscriptions work over it.
      protocolVersion: embedded ? 4 : undefined,
      clientId: `portal-ingest-${Deno.hostname()}`,
      shareGroup: config.mqtt.shareGroup ?? undefined,
      silenceMs: config.mqtt.silenceSeconds * 1000,
    })
    : null;
  return {
    broker,
    ingest,
    url: config.mqtt.url ?? broker!.url,
    async stop() {
      // A sweep under way stops at its next commit, so that ingest ends without waiting for it.
      status?.interrupt();
      await ingest?.stop();
      await alerts?.stop();
      await status?.close();
      await broker?.close();
    },
  };
}
