/**
 * Test helpers for ingest: plain-map implementations of the directory and the status
 * sink, an in-memory telemetry store, a recording wrapper around any store, polling, the two
 * brokers (a real Mosquitto, the embedded aedes broker), a meter's frame and client, and ingest
 * attached to the embedded broker.
 */
import type { Sample, TelemetryStats, TelemetryStore } from "../../db/telemetry/mod.ts";
import type {
  DeviceDirectory,
  IngestDevice,
  OfflineReason,
  StatusSink,
} from "../../ingest/contract.ts";
import { sensorTopicPrefix } from "../../core/devices.ts";
import { startEmbeddedBroker } from "../../ingest/broker.ts";
import type { Deps } from "../../services/deps.ts";
import { createDeviceDirectory } from "../../services/devices/status.ts";
import { brokerTls } from "../../services/devices/mqtt_runtime.ts";
import { openSqliteStore } from "../../db/telemetry/sqlite.ts";
import { type IngestOptions, startIngest } from "../../ingest/subscriber.ts";
import { connectSimMeter, type SimMeter, type SimMeterOptions } from "../../ingest/sim_meter.ts";
import { type Mosquitto, startMosquitto } from "../_mosquitto.ts";
import mqtt from "mqtt";

/** A device with its MQTT credentials, as the test directory keeps it. */
export interface TestDevice extends IngestDevice {
  username: string;
  password: string;
}

/** A sensor with credentials `<serial lowercased>` / `pw-<serial lowercased>`. */
export function testSensor(serial: string, password = `pw-${serial.toLowerCase()}`): TestDevice {
  return {
    serial,
    kind: "sensor",
    prefix: sensorTopicPrefix(serial),
    username: serial.toLowerCase(),
    password,
  };
}

/** A directory over a plain map, counting its lookups. */
export class MemoryDirectory implements DeviceDirectory {
  devices = new Map<string, TestDevice>();
  lookups = 0;
  /** When set, every call throws it. */
  failWith: Error | null = null;

  constructor(devices: TestDevice[] = []) {
    for (const d of devices) this.add(d);
  }

  add(d: TestDevice): void {
    this.devices.set(d.prefix, d);
  }

  remove(prefix: string): void {
    this.devices.delete(prefix);
  }

  #strip(d: TestDevice): IngestDevice {
    return { serial: d.serial, kind: d.kind, prefix: d.prefix };
  }

  list(): Promise<IngestDevice[]> {
    if (this.failWith) return Promise.reject(this.failWith);
    return Promise.resolve([...this.devices.values()].map((d) => this.#strip(d)));
  }

  byPrefix(prefix: string): Promise<IngestDevice | null> {
    this.lookups++;
    if (this.failWith) return Promise.reject(this.failWith);
    const d = this.devices.get(prefix);
    return Promise.resolve(d ? this.#strip(d) : null);
  }

  authenticate(username: string, password: string): Promise<IngestDevice | null> {
    if (this.failWith) return Promise.reject(this.failWith);
    for (const d of this.devices.values()) {
      if (d.username === username && d.password === password) {
        return Promise.resolve(this.#strip(d));
      }
    }
    return Promise.resolve(null);
  }
}

/** A status transition the sink received. */
export interface StatusEvent {
  serial: string;
  ts: number;
  status: "online" | "offline";
  reason?: OfflineReason;
}

/** A status sink over plain maps, keeping every transition. */
export class MemoryStatus implements StatusSink {
  events: StatusEvent[] = [];
  lastSeen = new Map<string, number>();
  seenCalls = 0;
  /** When set, every call throws it. */
  failWith: Error | null = null;

  seen(serial: string, ts: number): void {
    this.seenCalls++;
    if (this.failWith) throw this.failWith;
    this.lastSeen.set(serial, Math.max(ts, this.lastSeen.get(serial) ?? 0));
  }

  online(serial: string, ts: number): Promise<void> {
    if (this.failWith) return Promise.reject(this.failWith);
    this.events.push({ serial, ts, status: "online" });
    return Promise.resolve();
  }

  offline(serial: string, ts: number, reason: OfflineReason): Promise<void> {
    if (this.failWith) return Promise.reject(this.failWith);
    this.events.push({ serial, ts, status: "offline", reason });
    return Promise.resolve();
  }

  /** The last status reported for a device, or undefined. */
  current(serial: string): StatusEvent | undefined {
    return this.events.findLast((e) => e.serial === serial);
  }
}

/**
 * An in-memory telemetry store for tests: `write` queues, `flush` makes samples visible,
 * `latest` merges a device's samples. The chart queries are not needed by ingest tests
 * and throw.
 */
export class MemoryStore implements TelemetryStore {
  queued: Sample[] = [];
  samples: Sample[] = [];
  flushes = 0;
  /** When set, `write` throws it. */
  writeFails: Error | null = null;
  /** When set, `flush` rejects with it. */
  flushFails: Error | null = null;

  write(samples: Sample[]): void {
    if (this.writeFails) throw this.writeFails;
    this.queued.push(...samples);
  }

  flush(): Promise<void> {
    this.flushes++;
    if (this.flushFails) return Promise.reject(this.flushFails);
    this.samples.push(...this.queued);
    this.queued = [];
    return Promise.resolve();
  }

  latest(serial: string): Promise<Sample | null> {
    const mine = this.samples.filter((s) => s.serial === serial).sort((a, b) => a.ts - b.ts);
    if (mine.length === 0) return Promise.resolve(null);
    const values = Object.assign({}, ...mine.map((s) => s.values));
    return Promise.resolve({ serial, ts: mine[mine.length - 1].ts, values });
  }

  series(): Promise<never> {
    return Promise.reject(new Error("series() is not in the test store"));
  }

  counterDelta(): Promise<never> {
    return Promise.reject(new Error("counterDelta() is not in the test store"));
  }

  counterSeries(): Promise<never> {
    return Promise.reject(new Error("counterSeries() is not in the test store"));
  }

  prune(): Promise<number> {
    return Promise.resolve(0);
  }

  stats(): TelemetryStats {
    return { samplesWritten: this.samples.length, pending: this.queued.length, backend: "sqlite" };
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The real embedded store (SQLite in memory) behind a recording wrapper; close it. */
export function sqliteStore(): TelemetryStore & { written: Sample[] } {
  return recordingStore(openSqliteStore(":memory:"));
}

/**
 * A store that forwards each call of the {@link TelemetryStore} interface to `inner`, and no
 * more: the optional `counterUsage()` is left out.
 */
export function forwardingStore(inner: TelemetryStore): TelemetryStore {
  return {
    write: (samples) => inner.write(samples),
    flush: () => inner.flush(),
    latest: (serial) => inner.latest(serial),
    series: (...args) => inner.series(...args),
    counterDelta: (...args) => inner.counterDelta(...args),
    counterSeries: (...args) => inner.counterSeries(...args),
    prune: (now) => inner.prune(now),
    stats: () => inner.stats(),
    close: () => inner.close(),
  };
}

/** A store wrapper that records every sample written through it. */
export function recordingStore(inner: TelemetryStore): TelemetryStore & { written: Sample[] } {
  const written: Sample[] = [];
  return {
    ...forwardingStore(inner),
    written,
    write(samples) {
      inner.write(samples);
      for (const s of samples) written.push(s);
    },
  };
}

/** Polls `condition` every 10 ms until it holds; throws with `what` after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Ingest's credentials in tests. */
export const INGEST_CREDENTIALS = { username: "portal-ingest", password: "ingest-secret-1" };

/** A broker for a test, Mosquitto or embedded. */
export interface TestBroker {
  name: "mosquitto" | "embedded";
  url: string;
  /** The Mosquitto handle (stop/start), when it is Mosquitto. */
  mosquitto?: Mosquitto;
  close(): Promise<void>;
}

/** A real Mosquitto (anonymous clients allowed, persistence on). */
export async function mosquittoBroker(): Promise<TestBroker> {
  const m = await startMosquitto();
  return { name: "mosquitto", url: m.url, mosquitto: m, close: () => m.close() };
}

/** The embedded broker on a free loopback port, authenticating against `directory`. */
export async function embeddedBroker(directory: DeviceDirectory): Promise<TestBroker> {
  const b = await startEmbeddedBroker({
    port: 0,
    hostname: "127.0.0.1",
    directory,
    ingestCredentials: INGEST_CREDENTIALS,
  });
  return { name: "embedded", url: b.url, close: () => b.close() };
}

/**
 * The portal's embedded broker (of `deps`) on free loopback ports, plain and TLS with the
 * portal's broker certificate, authenticating the portal's devices and ingest.
 */
export async function portalTlsBroker(deps: Deps) {
  return await startEmbeddedBroker({
    port: 0,
    hostname: "127.0.0.1",
    directory: createDeviceDirectory(deps),
    ingestCredentials: INGEST_CREDENTIALS,
    tls: { ...(await brokerTls(deps))!, port: 0 },
  });
}

/** Both kinds of broker, for tests that run on each. */
export const BROKERS: {
  name: TestBroker["name"];
  start: (directory: DeviceDirectory) => Promise<TestBroker>;
}[] = [
  { name: "mosquitto", start: () => mosquittoBroker() },
  { name: "embedded", start: (directory) => embeddedBroker(directory) },
];

/** Ingest tuned for tests: short batches and flushes, quiet log. */
export function testIngestOptions(
  broker: TestBroker,
  deps: { directory: DeviceDirectory; status: StatusSink; store: TelemetryStore },
  overrides: Partial<IngestOptions> = {},
): IngestOptions {
  return {
    url: broker.url,
    ...INGEST_CREDENTIALS,
    clientId: `ingest-test-${crypto.randomUUID().slice(0, 8)}`,
    batchMs: 10,
    flushMs: 20,
    reconnectMs: 100,
    statsLogMs: 0,
    ...deps,
    ...overrides,
  };
}

/**
 * A test's ingest: `devices` in a memory directory, a status sink, a SQLite store, the broker
 * `start` makes on the directory, and ingest started on them (`overrides` of
 * {@link testIngestOptions}); `close()` stops ingest, then the store, then the broker.
 */
export async function startTestIngest(
  start: (directory: DeviceDirectory) => Promise<TestBroker>,
  devices: TestDevice[],
  overrides: Partial<IngestOptions> = {},
) {
  const directory = new MemoryDirectory(devices);
  const status = new MemoryStatus();
  const store = sqliteStore();
  const broker = await start(directory);
  const ingest = startIngest(testIngestOptions(broker, { directory, status, store }, overrides));
  return {
    directory,
    status,
    store,
    broker,
    ingest,
    async close() {
      await ingest.stop();
      await store.close();
      await broker.close();
    },
  };
}

/** Connects simulated meters for test devices (their own credentials). */
export function connectMeters(
  broker: TestBroker,
  devices: TestDevice[],
  options: Partial<SimMeterOptions> = {},
): Promise<SimMeter[]> {
  return Promise.all(devices.map((d) =>
    connectSimMeter({
      url: broker.url,
      serial: d.serial,
      username: d.username,
      password: d.password,
      reconnectMs: 100,
      ...options,
    })
  ));
}

/** A meter's `NotifyStatus` frame at `ts` (epoch seconds): total active power `power` W. */
export const notifyFrame = (ts: number, power: number) =>
  JSON.stringify({
    method: "NotifyStatus",
    params: { ts, "em:0": { id: 0, total_act_power: power } },
  });

/** An MQTT client signed in as `device` (no reconnects, errors left to the test). */
export async function meterClient(url: string, device: TestDevice, clientId: string) {
  const meter = await mqtt.connectAsync(url, {
    username: device.username,
    password: device.password,
    clientId,
    reconnectPeriod: 0,
  });
  meter.on("error", () => {});
  return meter;
}

/**
 * Ingest `<name>-ingest` attached to the embedded broker (`receive`: a QoS 1 publish is
 * acknowledged once ingest answered), writing to `store`, and meter `<name>-meter` of `device`
 * connected to the broker.
 */
export async function attachedIngest(device: TestDevice, store: TelemetryStore, name: string) {
  const directory = new MemoryDirectory([device]);
  const ingest = startIngest({
    url: "mqtt://embedded",
    attached: true,
    clientId: `${name}-ingest`,
    directory,
    status: new MemoryStatus(),
    store,
    statsLogMs: 0,
  });
  await ingest.ready;
  const broker = await startEmbeddedBroker({
    port: 0,
    directory,
    ingestCredentials: INGEST_CREDENTIALS,
    receive: (topic, payload) => ingest.receive(topic, payload),
  });
  const meter = await meterClient(broker.url, device, `${name}-meter`);
  return { ingest, broker, meter };
}
