/**
 * The heart of ingest, without the network: one call per MQTT message. It finds the
 * device by topic prefix, reports status, drops what must be dropped (unknown topics and
 * devices, oversized messages, floods, malformed or wrongly typed payloads) and counts it,
 * interprets the rest into samples, and hands them to the store in batches. Nothing it
 * receives and no error of its dependencies makes it throw.
 */
import { type Sample, syncStore, type TelemetryStore } from "../db/telemetry/mod.ts";
import type { DeviceDirectory, IngestDevice, StatusSink } from "./contract.ts";
import { interpretBytes, interpretMessage, type InterpretOptions } from "./shelly.ts";
import { type DeviceTopic, splitDeviceTopic } from "./shelly_topic.ts";
import type { Values } from "./shelly_values.ts";
import { DeviceCache, type TrackedDevice } from "./device_cache.ts";
import { StatusTracker } from "./status_tracker.ts";
import { StatsCounter } from "./stats.ts";
import type { DropReason, IngestStats } from "../core/ingest_health.ts";
import { takeToken } from "./token_bucket.ts";
import { type IngestLog, SILENT_LOG, type ThrottledLog, throttledLog } from "./_log.ts";

export { DEFAULT_LIMITS, type IngestLimits } from "./limits.ts";
import { DEFAULT_LIMITS, type IngestLimits } from "./limits.ts";

/** What the processor works with. */
export interface ProcessorDeps {
  directory: DeviceDirectory;
  status: StatusSink;
  store: TelemetryStore;
  log?: IngestLog;
  /** The clock (epoch ms). */
  now?: () => number;
  /** Handed each batch of samples given to the store (alert rules); must be quick, not throw. */
  onSamples?: (samples: readonly Sample[]) => void;
  /** Called at each flush, beside the directory's revision (alert rules: theirs); must not throw. */
  onFlush?: () => void;
}

/** The counters plus how many devices are tracked and in which state. */
export interface ProcessorStats extends IngestStats {
  devices: { tracked: number; online: number; offline: number };
  /** Whether the last commit to the telemetry store failed (none succeeded since). */
  storeFailing?: boolean;
}

interface Waiting {
  rest: string;
  payload: Uint8Array | string;
  at: number;
}

const decoder = new TextDecoder();

/** How long the clock offset seen in a device's frame is used for its untimed readings. */
const CLOCK_TRUST_MS = 60_000;

/** Topics remembered split at most (then forgotten together). */
const MAX_TOPICS = 50_000;

/** Prefixes waiting for the directory at once, at most. */
const MAX_WAITING_PREFIXES = 10_000;

/** Ingest without the network; see the module comment. */
export class IngestProcessor {
  readonly limits: IngestLimits;
  #interpret: InterpretOptions;
  #store: TelemetryStore;
  #log: IngestLog;
  #throttled: ThrottledLog;
  #now: () => number;
  #stats = new StatsCounter();
  #cache: DeviceCache;
  #tracker: StatusTracker;
  #waiting = new Map<string, Waiting[]>();
  /** Topics split before (see `#split`). */
  #topics = new Map<string, DeviceTopic>();
  /**
   * The pending samples: the first of the four stages of a reading's way to disk (the others:
   * the store's write queue, its writer thread, its journal; ARCHITECTURE.md).
   */
  #pending: Sample[] = [];
  /** Whether the last commit failed (what ingest's health reports). */
  #storeFailing = false;
  #batch = 0;
  #flushing: Promise<void> = Promise.resolve();
  #closed = false;
  #directory: DeviceDirectory;
  /** The next group commit (see `durable`), not started yet. */
  #commit: Promise<void> | null = null;
  /** The latest group commit started; the next one starts once it has ended. */
  #committing: Promise<void> = Promise.resolve();
  /** When the latest group commit began (`performance.now()`). */
  #commitAt = -Infinity;
  /** Batches the store refused (see `writePending`). */
  #refusedBatches = 0;
  #onSamples: ProcessorDeps["onSamples"];
  #onFlush: ProcessorDeps["onFlush"];

  constructor(deps: ProcessorDeps, limits: Partial<IngestLimits> = {}) {
    const given = limits as Record<string, unknown>;
    this.limits = Object.fromEntries(
      Object.entries(DEFAULT_LIMITS).map(([k, v]) => [k, given[k] ?? v]),
    ) as unknown as IngestLimits;
    this.#interpret = {
      ...this.limits.timeWindow,
      overlayPartialFrames: this.limits.overlayPartialFrames,
    };
    this.#store = deps.store;
    this.#directory = deps.directory;
    this.#log = deps.log ?? SILENT_LOG;
    this.#now = deps.now ?? Date.now;
    this.#onSamples = deps.onSamples;
    this.#onFlush = deps.onFlush;
    this.#throttled = throttledLog(this.#log, this.limits.logIntervalMs, this.#now);
    this.#cache = new DeviceCache(deps.directory, {
      knownTtlMs: this.limits.knownTtlMs,
      unknownTtlMs: this.limits.unknownTtlMs,
      burst: this.limits.burstPerDevice,
    }, (error, prefix) => this.#error("directory", error, { prefix }));
    this.#tracker = new StatusTracker(
      deps.status,
      this.limits.silenceMs,
      (what, serial, error) => this.#error("status", error, { call: what, serial }),
    );
  }

  /** Tracks the devices of a directory listing from now on (silence counts from now). */
  preload(devices: IngestDevice[]): void {
    this.#cache.preload(devices, this.#now());
  }

  /** Handles one message; `at` is its arrival time (default now). Never throws. */
  handle(topic: string, payload: Uint8Array | string, at: number = this.#now()): void {
    if (this.#closed) return;
    this.#stats.received(at);
    try {
      const split = this.#topics.get(topic) ?? this.#split(topic);
      if (!split) return this.#drop("unknown_topic", at, { topic: topic.slice(0, 200) });
      const t = this.#cache.get(split.prefix, at);
      if (t === undefined) return this.#wait(split.prefix, { rest: split.rest, payload, at });
      if (t === null) return this.#drop("unknown_device", at, { prefix: split.prefix });
      this.#process(t, split.rest, payload, at);
    } catch (error) {
      this.#error("internal", error, { topic: topic.slice(0, 200) });
    }
  }

  /**
   * Splits a topic and remembers it: a meter speaks on a few topics, again and again, and a
   * remembered prefix is a string whose hash is known (the device lookup is then cheap).
   */
  #split(topic: string): DeviceTopic | null {
    const split = splitDeviceTopic(topic);
    if (!split) return null;
    // Random topics (an open broker) must not grow this without end.
    if (this.#topics.size >= MAX_TOPICS) this.#topics.clear();
    this.#topics.set(topic, split);
    return split;
  }

  #wait(prefix: string, message: Waiting): void {
    const queue = this.#waiting.get(prefix);
    if (queue) {
      if (queue.length >= this.limits.maxWaitingPerPrefix) {
        return this.#drop("flood", message.at, { prefix });
      }
      queue.push(message);
      return;
    }
    if (this.#waiting.size >= MAX_WAITING_PREFIXES) {
      return this.#drop("flood", message.at, {
        prefix,
        detail: "too many unknown prefixes at once",
      });
    }
    this.#waiting.set(prefix, [message]);
    this.#cache.lookup(prefix, this.#now).then((t) => {
      const messages = this.#waiting.get(prefix) ?? [];
      this.#waiting.delete(prefix);
      for (const m of messages) {
        if (!t) {
          this.#drop("unknown_device", m.at, { prefix });
          continue;
        }
        try {
          this.#process(t, m.rest, m.payload, m.at);
        } catch (error) {
          this.#error("internal", error, { prefix });
        }
      }
    }, (error) => {
      const messages = this.#waiting.get(prefix) ?? [];
      this.#waiting.delete(prefix);
      this.#error("directory", error, { prefix });
      for (const m of messages) this.#drop("directory_error", m.at, { prefix });
    });
  }

  #process(t: TrackedDevice, rest: string, payload: Uint8Array | string, at: number): void {
    const size = typeof payload === "string" ? payload.length : payload.byteLength;
    let online: boolean | undefined;
    if (rest === "online" && size <= 16) {
      const text = (typeof payload === "string" ? payload : decoder.decode(payload)).trim();
      if (text === "false") online = false;
    }
    this.#tracker.message(t, at, online);
    if (size > this.limits.maxMessageBytes) {
      return this.#drop("oversized", at, { serial: t.serial, bytes: size });
    }
    if (!takeToken(t.bucket, this.limits.ratePerDevice, this.limits.burstPerDevice, at)) {
      return this.#drop("flood", at, { serial: t.serial });
    }
    // Readings without a time of their own (status objects) take the device's clock as
    // its last frame showed it: after an outage a queued backlog arrives at once, and its
    // status objects then keep their place among the frames instead of all being "now".
    const untimed = at - t.clockAt <= CLOCK_TRUST_MS ? at + t.clockOffset : at;
    const r = typeof payload === "string"
      ? interpretMessage(t.meter, rest, payload, at, this.#interpret, untimed)
      : interpretBytes(t.meter, rest, payload, at, this.#interpret, untimed);
    switch (r.type) {
      case "reading":
        if (r.timed) {
          t.clockOffset = r.ts - at;
          t.clockAt = at;
        }
        if (r.invalidFields > 0) this.#stats.invalidFields(r.invalidFields);
        this.#add(t, r.ts, r.values);
        return;
      case "ignored":
        this.#stats.ignored();
        return;
      case "dropped":
        return this.#drop(r.reason, at, { serial: t.serial, topic: rest, detail: r.detail });
      case "online":
        return;
    }
  }

  #add(t: TrackedDevice, ts: number, values: Values): void {
    const last = t.pendingSample;
    // Two readings of one device at the same millisecond (em and emdata status objects
    // arriving together) become one sample.
    if (last && last.ts === ts && t.pendingBatch === this.#batch) {
      Object.assign(last.values, values);
      return;
    }
    const sample: Sample = { serial: t.serial, ts, values };
    this.#pending.push(sample);
    t.pendingSample = sample;
    t.pendingBatch = this.#batch;
    if (this.#pending.length >= this.limits.batchSize) this.writePending();
  }

  /**
   * Resolves once everything handled so far is written durably to the store (its `sync`; a
   * message that was dropped has nothing to write); rejects when any of it may not have been
   * written: the store failed, or the processor is closed. Callers that acknowledge a
   * message only after this resolves lose nothing they acknowledged. Commits run one at a
   * time, and start at least `commitGapMs` apart: messages arriving while one is under way
   * or waiting share the next (one store sync for many messages: each sync is a transaction
   * and a round trip to the store's writer, whose fixed cost, paid per few dozen messages when
   * commits follow each other at once, is a good part of a busy ingest's CPU).
   */
  durable(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("ingest is stopped"));
    if (this.#commit) return this.#commit;
    // Any refusal or failed write from now until the commit ends may have taken readings of
    // the messages it covers (the batch timer writes too): then it rejects, to be safe.
    const failedBefore = this.#store.stats().failedWrites ?? 0;
    const refusedBefore = this.#refusedBatches;
    const commit = this.#committing.catch(() => {}).then(() =>
      new Promise<void>((resolve) =>
        setTimeout(
          resolve,
          Math.max(0, this.#commitAt + this.limits.commitGapMs - performance.now()),
        )
      )
    ).then(async () => {
      this.#commitAt = performance.now();
      // Messages waiting for the directory become samples first; messages handled meanwhile
      // still join this commit.
      await this.#cache.settled();
      this.#commit = null;
      try {
        if (!this.writePending()) throw new Error("the telemetry store refused the readings");
        await syncStore(this.#store);
        if (
          (this.#store.stats().failedWrites ?? 0) !== failedBefore ||
          this.#refusedBatches !== refusedBefore
        ) {
          throw new Error("the telemetry store failed to write readings");
        }
      } catch (e) {
        this.#storeFailing = true;
        throw e;
      }
      this.#storeFailing = false;
    });
    this.#commit = commit;
    this.#committing = commit;
    return commit;
  }

  /**
   * Hands the pending samples to the store (its `write` only queues); false when the store
   * refused them (counted as dropped).
   */
  writePending(): boolean {
    if (this.#pending.length === 0) return true;
    const batch = this.#pending;
    this.#pending = [];
    this.#batch++;
    const now = this.#now();
    try {
      // Judged before the store takes the batch (its writer may hand the array on).
      this.#onSamples?.(batch);
    } catch (error) {
      this.#error("internal", error, { call: "onSamples" });
    }
    try {
      this.#store.write(batch);
      this.#stats.stored(batch.length, now);
      return true;
    } catch (error) {
      this.#refusedBatches++;
      this.#stats.dropped("store_error", now, batch.length);
      this.#error("store", error, { samples: batch.length });
      return false;
    }
  }

  /** Asks the directory's revision (one small read a flush), so device writes show soon. */
  async #revalidate(): Promise<void> {
    this.#onFlush?.();
    if (!this.#directory.revision) return;
    try {
      this.#cache.revalidate(await this.#directory.revision());
    } catch (error) {
      this.#error("directory", error, { call: "revision" });
    }
  }

  /** Writes the pending samples and flushes the store; errors are counted, not thrown. */
  flush(): Promise<void> {
    this.writePending();
    this.#flushing = this.#flushing.then(async () => {
      await this.#revalidate();
      try {
        await this.#store.flush();
      } catch (error) {
        this.#error("store", error, { call: "flush" });
      }
    });
    return this.#flushing;
  }

  /** Marks silent devices offline (see `silenceMs`). */
  sweep(now: number = this.#now()): void {
    this.#tracker.sweep(this.#cache.all(), now);
  }

  /** The counters now. */
  stats(): ProcessorStats {
    const devices = { tracked: 0, online: 0, offline: 0 };
    for (const t of this.#cache.all()) {
      devices.tracked++;
      if (t.state === "online") devices.online++;
      else if (t.state === "offline") devices.offline++;
    }
    return { ...this.#stats.snapshot(this.#now()), devices, storeFailing: this.#storeFailing };
  }

  /** Finishes directory lookups and status calls, writes and flushes everything. */
  async close(): Promise<void> {
    await this.#cache.settled();
    this.#closed = true;
    await this.flush();
    await this.#tracker.settled();
  }

  #drop(reason: DropReason, at: number, context: Record<string, unknown>): void {
    this.#stats.dropped(reason, at);
    this.#throttled.log(`drop:${reason}`, "warn", `ingest dropped a message: ${reason}`, context);
  }

  #error(
    kind: "store" | "status" | "directory" | "internal",
    error: unknown,
    context: Record<string, unknown>,
  ): void {
    this.#stats.error(kind);
    this.#throttled.log(`error:${kind}`, "error", `ingest caught a ${kind} error`, {
      ...context,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
