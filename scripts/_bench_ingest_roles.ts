/**
 * The parties of `scripts/bench_ingest.ts` that run as child processes (the script with
 * `--role plain|ingest|broker`): a plain mqtt.js subscriber that only counts, the real
 * ingest on a SQLite store (or one that keeps nothing), and the embedded broker. Each
 * reports its progress as one JSON event per line on stdout.
 */
import process from "node:process";
import mqtt from "mqtt";
import { startIngest } from "../ingest/subscriber.ts";
import { startEmbeddedBroker } from "../ingest/broker.ts";
import { simIdentity } from "../ingest/sim.ts";
import type { DeviceDirectory, IngestDevice, StatusSink } from "../ingest/contract.ts";
import { openSqliteStore } from "../db/telemetry/sqlite.ts";
import { openTelemetry } from "../db/telemetry/open.ts";
import type { TelemetryStore } from "../db/telemetry/mod.ts";
import { sensorTopicPrefix } from "../core/devices.ts";
import {
  type MeterPlace,
  READING_TEMPLATES,
  ruleInputSchema,
  ruleOf,
} from "../core/alert_rules.ts";
import { AlertEvaluator } from "../services/alerts/mod.ts";
import type { Deps } from "../services/deps.ts";

/**
 * An alert evaluator with `n` active reading rules over every simulated meter (the five
 * templates in turn, all stations, default limits held an hour before an alert opens), on an
 * in-memory KV where the alerts it opens are written.
 */
export async function benchEvaluator(n: number, meters: number): Promise<AlertEvaluator> {
  const kv = await Deno.openKv(":memory:");
  const deps = { kv, log: { log() {} }, now: Date.now } as unknown as Deps;
  const e = new AlertEvaluator(deps);
  const rules = Array.from({ length: n }, (_, i) =>
    ruleOf(
      ruleInputSchema.parse({
        template: READING_TEMPLATES[i % READING_TEMPLATES.length],
        minutes: 60 + i,
        kw: 2 + i,
      }),
      `bench-${i}`,
      1,
      0,
    ));
  const places = new Map<string, MeterPlace>();
  for (let i = 1; i <= meters; i++) {
    const serial = simIdentity(i).serial;
    places.set(serial.toUpperCase(), {
      serial,
      device_id: i,
      station_id: i,
      zone_id: 1,
      unit_id: null,
    });
  }
  e.load(rules, places, new Set());
  return e;
}

/** The command-line options a role reads. */
interface RoleArgs {
  url?: string;
  port?: string;
  "client-id"?: string;
  expect?: string;
  meters?: string;
  seconds?: string;
  prepare?: boolean;
  store?: string;
  /** Reading alert rules judged in ingest's path (0: none). */
  rules?: string;
}

const enc = new TextEncoder();
const out = (line = "") => Deno.stdout.writeSync(enc.encode(line + "\n"));
/** The account ingest signs in with on the bench's brokers. */
export const INGEST_CREDENTIALS = { username: "bench-ingest", password: "bench-ingest-secret" };
/** Bytes in whole megabytes. */
const mb = (bytes: number) => Math.round(bytes / 1048576);
/** CPU time (user and system, every thread of this process) in ms since `since`. */
const cpuMs = (since?: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};

/**
 * CPU time (ms) of each thread of this process so far, summed by kind: `main`, `worker` (the
 * store's writer), `v8` (the engine's helper threads: garbage collection, compilation) and
 * `other`; empty where /proc is missing (not Linux).
 */
function threadCpuMs(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const e of Deno.readDirSync("/proc/self/task")) {
      try {
        const stat = Deno.readTextFileSync(`/proc/self/task/${e.name}/stat`);
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const kind = e.name === String(Deno.pid)
          ? "main"
          : name.startsWith("worker")
          ? "worker"
          : name.startsWith("V8")
          ? "v8"
          : "other";
        // utime + stime, in clock ticks (100 a second on Linux).
        out[kind] = (out[kind] ?? 0) + (Number(f[11]) + Number(f[12])) * 10;
      } catch { /* the thread ended */ }
    }
  } catch { /* no /proc */ }
  return out;
}

/** A directory of the simulator's meters 1..n (default naming). */
export function simDirectory(n: number): DeviceDirectory {
  const devices = new Map<string, IngestDevice & { username: string; password: string }>();
  for (let i = 1; i <= n; i++) {
    const id = simIdentity(i);
    const prefix = sensorTopicPrefix(id.serial);
    devices.set(prefix, { ...id, kind: "sensor", prefix });
  }
  const strip = (d: IngestDevice) => ({ serial: d.serial, kind: d.kind, prefix: d.prefix });
  return {
    list: () => Promise.resolve([...devices.values()].map(strip)),
    byPrefix: (prefix) => Promise.resolve(devices.has(prefix) ? strip(devices.get(prefix)!) : null),
    authenticate: (username, password) => {
      for (const d of devices.values()) {
        if (d.username === username && d.password === password) return Promise.resolve(strip(d));
      }
      return Promise.resolve(null);
    },
  };
}

/** A store that keeps nothing (to tell ingest's own cost from the store's). */
export function nullStore(): TelemetryStore {
  let written = 0;
  return {
    write(samples) {
      written += samples.length;
    },
    flush: () => Promise.resolve(),
    latest: (serial) => Promise.resolve({ serial, ts: 0, values: {} }),
    series: () => Promise.resolve([]),
    counterDelta: () => Promise.resolve(0),
    counterSeries: () => Promise.resolve([]),
    prune: () => Promise.resolve(0),
    stats: () => ({ samplesWritten: written, pending: 0, backend: "sqlite" }),
    close: () => Promise.resolve(),
  };
}

/** A status sink that only counts (the KV one is measured elsewhere). */
export function countingStatus(): StatusSink & { transitions: number } {
  return {
    transitions: 0,
    seen() {},
    online() {
      this.transitions++;
      return Promise.resolve();
    },
    offline() {
      this.transitions++;
      return Promise.resolve();
    },
  };
}

const emit = (event: Record<string, unknown>) => out(JSON.stringify(event));

/** The plain subscriber: persistent session, QoS 1, counts messages. */
export async function rolePlain(args: RoleArgs) {
  const expect = Number(args.expect);
  let n = 0;
  let first = 0;
  let rssMax = 0;
  const done = Promise.withResolvers<void>();
  // Handlers first: a kept session's queued messages follow the CONNACK at once.
  const client = mqtt.connect(args.url!, {
    clientId: args["client-id"],
    clean: false,
    ...INGEST_CREDENTIALS,
    reconnectPeriod: 1_000,
  });
  let cpu: NodeJS.CpuUsage | undefined;
  client.on("message", () => {
    if (n === 0) {
      first = performance.now();
      cpu = process.cpuUsage();
    }
    if (++n % 20_000 === 0) rssMax = Math.max(rssMax, Deno.memoryUsage().rss);
    if (n === expect) done.resolve();
  });
  await new Promise((resolve) => client.once("connect", resolve));
  const granted = await client.subscribeAsync(["sensor/+/#", "station/+/#"], { qos: 1 });
  if (args.prepare) {
    await client.endAsync();
    return emit({ event: "prepared" });
  }
  emit({ event: "ready", granted: granted.length });
  await done.promise;
  const seconds = (performance.now() - first) / 1000;
  const cpu_ = cpuMs(cpu);
  rssMax = Math.max(rssMax, Deno.memoryUsage().rss);
  await client.endAsync();
  emit({
    event: "done",
    received: n,
    seconds,
    rate: n / seconds,
    rssMb: mb(rssMax),
    cpuUsPerMsg: Math.round(cpu_ * 1000 / n * 10) / 10,
  });
}

/** The ingest process: real subscriber, SQLite store in a temporary folder. */
export async function roleIngest(args: RoleArgs) {
  const meters = Number(args.meters);
  const dir = await Deno.makeTempDir({ prefix: "bench-ingest-" });
  // The store the portal opens (writer worker), or the same SQLite store writing on this
  // thread (`--store inline`), or one that keeps nothing (`--store none`).
  const path = `${dir}/telemetry.sqlite`;
  const store = args.store === "none"
    ? nullStore()
    : args.store === "inline"
    ? openSqliteStore(path, { batchSize: 50_000 })
    : await openTelemetry({ sqlitePath: path });
  const status = countingStatus();
  const rules = Number(args.rules ?? 0);
  const alerts = rules > 0 ? await benchEvaluator(rules, meters) : null;
  const ingest = startIngest({
    onSamples: alerts?.samples,
    url: args.url!,
    ...INGEST_CREDENTIALS,
    clientId: args["client-id"]!,
    directory: simDirectory(meters),
    status,
    store,
    ratePerDevice: 1e9,
    burstPerDevice: 1e9,
    silenceMs: 3_600_000,
    statsLogMs: 0,
  });
  await ingest.ready;
  if (args.prepare) {
    await ingest.stop();
    await store.close();
    await Deno.remove(dir, { recursive: true });
    return emit({ event: "prepared" });
  }
  emit({ event: "ready", rssMb: mb(Deno.memoryUsage().rss) });
  const expect = Number(args.expect ?? Infinity);
  const until = performance.now() + Number(args.seconds ?? Infinity) * 1000;
  let first = 0;
  let cpu: NodeJS.CpuUsage | undefined;
  let threads0: Record<string, number> = {};
  let rssMax = 0;
  let rssAt = 0;
  let lastReport = 0;
  while (true) {
    const s = ingest.stats();
    if (first === 0 && s.received > 0) {
      first = performance.now();
      cpu = process.cpuUsage();
      threads0 = threadCpuMs();
    }
    const now = performance.now();
    // Sampled like the plain subscriber's (not every poll: it costs the thread that parses).
    if (now - rssAt >= 100) {
      rssAt = now;
      rssMax = Math.max(rssMax, Deno.memoryUsage().rss);
    }
    if (args.seconds && now - lastReport >= 5_000) {
      lastReport = now;
      emit({ event: "rss", rssMb: mb(Deno.memoryUsage().rss), received: s.received });
    }
    if (s.received >= expect || now >= until) break;
    await new Promise((r) => setTimeout(r, 2));
  }
  await ingest.flush();
  const end = performance.now();
  const cpu_ = cpuMs(cpu);
  const threads = Object.fromEntries(
    Object.entries(threadCpuMs()).map((
      [kind, ms],
    ) => [
      kind,
      Math.round((ms - (threads0[kind] ?? 0)) * 1000 / ingest.stats().received * 10) / 10,
    ]),
  );
  rssMax = Math.max(rssMax, Deno.memoryUsage().rss);
  const s = ingest.stats();
  const latest = await store.latest(simIdentity(1).serial);
  const written = store.stats().samplesWritten;
  await ingest.stop();
  await store.close();
  await Deno.remove(dir, { recursive: true });
  const seconds = (end - first) / 1000;
  emit({
    event: "done",
    received: s.received,
    stored: s.stored,
    written,
    dropped: Object.values(s.dropped).reduce((a, b) => a + b, 0),
    queryable: latest !== null,
    seconds,
    rate: s.received / seconds,
    rssMb: mb(rssMax),
    cpuUsPerMsg: Math.round(cpu_ * 1000 / s.received * 10) / 10,
    /** The same by thread (ticks of 10 ms: rough). */
    threadUsPerMsg: threads,
  });
}

/** The embedded broker in its own process. */
export async function roleBroker(args: RoleArgs) {
  const broker = await startEmbeddedBroker({
    port: Number(args.port),
    hostname: "127.0.0.1",
    directory: simDirectory(Number(args.meters)),
    ingestCredentials: INGEST_CREDENTIALS,
  });
  emit({ event: "ready", url: broker.url });
  const stop = Promise.withResolvers<void>();
  Deno.addSignalListener("SIGTERM", () => stop.resolve());
  await stop.promise;
  await broker.close();
  Deno.exit(0);
}
