/**
 * The MQTT side of ingest: one mqtt.js client with a persistent session (stable client
 * id, `clean: false`, QoS 1) so that a broker restart or a reconnect loses nothing the
 * broker acknowledged to a meter, and ingest acknowledges a message only once the store
 * committed it (`ack_after_commit.ts`); automatic reconnect; wildcard subscriptions to
 * `sensor/+/#` and `station/+/#`, optionally through a shared subscription
 * (`$share/<group>/...`: MQTT 5 on Mosquitto, 3.1.1 on the embedded broker) so that several ingest processes split the load (then a
 * NotifyStatus reading carries only the frame's own values, since each process sees only
 * some of a meter's frames; see `overlayPartialFrames`). Every
 * message goes to an {@link IngestProcessor}; timers write batches, flush the store and
 * look for silent devices.
 *
 * With Mosquitto, mind `max_queued_messages` (default 1000 per client, silently dropped
 * past it): raise it (or 0, no limit) so a long ingest outage loses nothing.
 */
import mqtt from "mqtt";
import type { Sample, TelemetryStore } from "../db/telemetry/mod.ts";
import type { DeviceDirectory, StatusSink } from "./contract.ts";
import { type IngestLimits, IngestProcessor, type ProcessorStats } from "./processor.ts";
import { type IngestLog, redactUrl, SILENT_LOG, throttledLog } from "./_log.ts";
import { AckAfterCommit } from "./ack_after_commit.ts";

/** What {@link startIngest} needs. */
export interface IngestOptions extends Partial<IngestLimits> {
  /** Broker URL, e.g. `mqtt://127.0.0.1:1883` or `mqtts://broker:8883`. */
  url: string;
  /** The ingest client's own MQTT credentials. */
  username?: string;
  password?: string;
  /**
   * For `mqtts://`: the CA the broker's certificate must chain to (only it is trusted) and the
   * client certificate and key to present (brokers that require one).
   */
  tls?: { ca: string; cert?: string; key?: string };
  /**
   * No MQTT client: the embedded broker of this process hands every message to
   * {@link Ingest.receive} before acknowledging it (see `ingest/broker.ts`). `url` is then
   * only named in the log.
   */
  attached?: boolean;
  /** Stable client id: the broker keeps this id's session (and queued messages). */
  clientId: string;
  /**
   * Shared-subscription group: several ingest processes split the messages
   * (`$share/<group>/...`).
   */
  shareGroup?: string;
  /**
   * MQTT version spoken: 5, or 4 (3.1.1). Default: 5 with a share group, else 4. The
   * embedded broker speaks 3.1.1 only and takes `$share/` subscriptions over it, as
   * Mosquitto does.
   */
  protocolVersion?: 4 | 5;
  /** Topic filters; default `sensor/+/#` and `station/+/#`. */
  topics?: string[];
  directory: DeviceDirectory;
  status: StatusSink;
  store: TelemetryStore;
  log?: IngestLog;
  now?: () => number;
  /** Handed each batch of samples (alert rules; see `ProcessorDeps.onSamples`). */
  onSamples?: (samples: readonly Sample[]) => void;
  /** Called at each flush (see `ProcessorDeps.onFlush`). */
  onFlush?: () => void;
  /** How often pending samples go to the store. Default 100 ms. */
  batchMs?: number;
  /** How often the store is flushed. Default 1 000 ms. */
  flushMs?: number;
  /** Wait between reconnect attempts. Default 1 000 ms. */
  reconnectMs?: number;
  /** MQTT 5 session expiry (seconds) of the persistent session. Default 7 days. */
  sessionExpirySeconds?: number;
  /** Stats are logged at info level this often; 0 turns it off. Default 60 000. */
  statsLogMs?: number;
}

/** Stats of a running ingest. */
export interface SubscriberStats extends ProcessorStats {
  /** Whether the client is connected to the broker now. */
  connected: boolean;
  /** How many times it connected (1 + reconnects). */
  connects: number;
}

/** A running ingest. */
export interface Ingest {
  /** Resolves once connected and subscribed the first time. */
  ready: Promise<void>;
  stats(): SubscriberStats;
  /** Writes pending samples and flushes the store. */
  flush(): Promise<void>;
  /**
   * Handles one message and resolves once it is durable in the store (or dropped); rejects
   * when it may not be (see `IngestProcessor.durable`). For the embedded broker of an
   * `attached` ingest, which acknowledges a publish only when this resolves.
   */
  receive(topic: string, payload: Uint8Array | string): Promise<void>;
  /** Disconnects cleanly (the session stays on the broker), then writes and flushes everything. */
  stop(): Promise<void>;
}

/** The default topic filters. */
const INGEST_TOPICS = ["sensor/+/#", "station/+/#"];

/** Starts ingest: loads the device list, connects, subscribes. */
export function startIngest(options: IngestOptions): Ingest {
  const log = options.log ?? SILENT_LOG;
  const now = options.now ?? Date.now;
  const throttled = throttledLog(log, 10_000, now);
  const shared = options.shareGroup !== undefined;
  const v5 = (options.protocolVersion ?? (shared ? 5 : 4)) === 5;
  const processor = new IngestProcessor(
    {
      directory: options.directory,
      status: options.status,
      store: options.store,
      log,
      now,
      onSamples: options.onSamples,
      onFlush: options.onFlush,
    },
    // Each process of a shared subscription sees only some of a meter's frames.
    { ...options, overlayPartialFrames: options.overlayPartialFrames ?? !shared },
  );
  const filters = (options.topics ?? INGEST_TOPICS).map((t) =>
    shared ? `$share/${options.shareGroup}/${t}` : t
  );
  let client: mqtt.MqttClient | null = null;
  let acks: AckAfterCommit | null = null;
  let stopped = false;
  let connects = 0;
  const timers: ReturnType<typeof setInterval>[] = [];

  let markReady: () => void;
  let failReady: (e: unknown) => void;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  // A caller that never awaits `ready` must not see an unhandled rejection.
  ready.catch(() => {});

  const subscribe = (c: mqtt.MqttClient) => {
    c.subscribe(filters, { qos: 1 }, (error, granted) => {
      if (error) {
        throttled.log("subscribe", "error", "ingest could not subscribe", { error: error.message });
        return;
      }
      const refused = (granted ?? []).filter((g) => g.qos !== 0 && g.qos !== 1 && g.qos !== 2);
      if (refused.length > 0) {
        log.log("error", "the broker refused ingest's subscriptions", {
          topics: refused.map((g) => g.topic),
        });
        return;
      }
      markReady();
    });
  };

  const start = async () => {
    try {
      processor.preload(await options.directory.list());
    } catch (error) {
      log.log("error", "ingest could not list devices; they are looked up as they speak", {
        error: error instanceof Error ? error.message : String(error),
      });
    }
    if (stopped) return;
    if (options.attached) {
      connects++;
      return markReady();
    }
    const c = mqtt.connect(options.url, {
      clientId: options.clientId,
      username: options.username,
      password: options.password,
      ...(options.tls
        ? {
          ca: options.tls.ca,
          cert: options.tls.cert,
          key: options.tls.key,
          rejectUnauthorized: true,
        }
        : {}),
      clean: false,
      protocolVersion: v5 ? 5 : 4,
      properties: v5
        ? { sessionExpiryInterval: options.sessionExpirySeconds ?? 7 * 86_400 }
        : undefined,
      reconnectPeriod: options.reconnectMs ?? 1_000,
      connectTimeout: 10_000,
      keepalive: 30,
      resubscribe: false,
      // mqtt.js otherwise formats a debug line per packet even when nobody reads them.
      log: () => {},
    });
    client = c;
    c.on("connect", (connack) => {
      connects++;
      log.log("info", "ingest connected", {
        url: redactUrl(options.url),
        clientId: options.clientId,
        sessionPresent: connack.sessionPresent,
      });
      // A session the broker kept still has the subscriptions; a new one needs them.
      if (!connack.sessionPresent) subscribe(c);
      else markReady();
    });
    acks = new AckAfterCommit(c, () => processor.durable(), (error) => {
      if (stopped) return;
      throttled.log(
        "ack-refused",
        "error",
        "the store did not take readings; the broker sends them again",
        {
          error: error instanceof Error ? error.message : String(error),
        },
      );
    });
    c.on("message", (topic, payload) => processor.handle(topic, payload));
    c.on("error", (error) => {
      throttled.log("mqtt-error", "warn", "ingest MQTT error", { error: error.message });
    });
    c.on("offline", () => {
      throttled.log("mqtt-offline", "warn", "ingest lost the broker; reconnecting", {});
    });
  };

  const sweepMs = Math.max(50, Math.min(1_000, processor.limits.silenceMs / 4));
  timers.push(setInterval(() => processor.writePending(), options.batchMs ?? 100));
  timers.push(setInterval(() => processor.flush(), options.flushMs ?? 1_000));
  timers.push(setInterval(() => processor.sweep(), sweepMs));
  const statsLogMs = options.statsLogMs ?? 60_000;
  if (statsLogMs > 0) {
    timers.push(setInterval(() => log.log("info", "ingest stats", { ...stats() }), statsLogMs));
  }
  const started = start().catch((error) => failReady(error));

  const stats = (): SubscriberStats => ({
    ...processor.stats(),
    connected: options.attached ? !stopped : client?.connected ?? false,
    connects,
  });

  return {
    ready,
    stats,
    flush: () => processor.flush(),
    receive(topic, payload) {
      processor.handle(topic, payload);
      return processor.durable();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const t of timers) clearInterval(t);
      await started;
      const c = client as mqtt.MqttClient | null;
      if (c) {
        // What was handled is stored and acknowledged before the connection ends.
        await (acks as AckAfterCommit | null)?.settled();
        // Not forced: in-flight acknowledgements go out before the socket closes.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => c.end(true, () => resolve()), 2_000);
          c.end(false, () => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      failReady(new Error("ingest stopped before it was ready"));
      await processor.close();
    },
  };
}
