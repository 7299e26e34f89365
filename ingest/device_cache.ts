/**
 * The devices ingest has met, by topic prefix, with what it keeps per device (meter
 * state, flood bucket, status). Lookups go to the {@link DeviceDirectory} once per prefix
 * and are cached: known devices are re-checked in the background after `knownTtlMs`
 * (a deleted device stops being accepted), unknown prefixes are asked again after
 * `unknownTtlMs` (a new device is picked up); sooner, once the directory's revision moved
 * ({@link DeviceCache.revalidate}: a device written by any portal process).
 */
import type { Sample } from "../db/telemetry/mod.ts";
import type { DeviceDirectory, IngestDevice } from "./contract.ts";
import { type MeterState, newMeterState } from "./shelly_state.ts";
import { type Bucket, fullBucket } from "./token_bucket.ts";
import type { TrackedStatus } from "./status_tracker.ts";

/** A device ingest is tracking. */
export interface TrackedDevice extends TrackedStatus {
  device: IngestDevice;
  meter: MeterState;
  bucket: Bucket;
  /** This device's last sample in the batch not yet written (merged when times are equal). */
  pendingSample: Sample | null;
  /** The batch number `pendingSample` belongs to. */
  pendingBatch: number;
  /** The device's clock minus arrival time, from its last timed frame. */
  clockOffset: number;
  /** Arrival time of that frame (-Infinity: none yet). */
  clockAt: number;
  /** Epoch ms of the last directory check. */
  checkedAt: number;
  refreshing: boolean;
}

/** Unknown prefixes remembered at most (then forgotten together). */
const MAX_UNKNOWN = 50_000;

/** Options of {@link DeviceCache}. */
interface DeviceCacheOptions {
  knownTtlMs: number;
  unknownTtlMs: number;
  burst: number;
}

/** The cache of devices by prefix. */
export class DeviceCache {
  #directory: DeviceDirectory;
  #options: DeviceCacheOptions;
  #onError: (error: unknown, prefix: string) => void;
  #known = new Map<string, TrackedDevice>();
  #unknown = new Map<string, number>();
  #inFlight = new Map<string, Promise<TrackedDevice | null>>();
  #refreshes = new Set<Promise<void>>();
  #revision: string | null = null;

  constructor(
    directory: DeviceDirectory,
    options: DeviceCacheOptions,
    onError: (error: unknown, prefix: string) => void,
  ) {
    this.#directory = directory;
    this.#options = options;
    this.#onError = onError;
  }

  #track(device: IngestDevice, now: number): TrackedDevice {
    const t: TrackedDevice = {
      serial: device.serial,
      state: "unknown",
      lastAt: now,
      device,
      meter: newMeterState(),
      bucket: fullBucket(this.#options.burst, now),
      pendingSample: null,
      pendingBatch: -1,
      clockOffset: 0,
      clockAt: -Infinity,
      checkedAt: now,
      refreshing: false,
    };
    this.#known.set(device.prefix, t);
    this.#unknown.delete(device.prefix);
    return t;
  }

  /**
   * Takes the directory's current revision: when it moved since the last one, every known
   * device is checked again at its next message and unknown prefixes are asked again.
   */
  revalidate(revision: string): void {
    if (this.#revision !== null && revision !== this.#revision) {
      for (const t of this.#known.values()) t.checkedAt = -Infinity;
      this.#unknown.clear();
    }
    this.#revision = revision;
  }

  /** Tracks every device of a directory listing (silent since `now`). */
  preload(devices: IngestDevice[], now: number): void {
    for (const d of devices) if (!this.#known.has(d.prefix)) this.#track(d, now);
  }

  /**
   * The tracked device of a prefix, null when the prefix is known to be nobody's, or
   * undefined when the directory must be asked ({@link lookup}).
   */
  get(prefix: string, now: number): TrackedDevice | null | undefined {
    const t = this.#known.get(prefix);
    if (t) {
      if (!t.refreshing && now - t.checkedAt >= this.#options.knownTtlMs) this.#refresh(t, now);
      return t;
    }
    const at = this.#unknown.get(prefix);
    if (at !== undefined && now - at < this.#options.unknownTtlMs) return null;
    return undefined;
  }

  /** Asks the directory about a prefix (one request per prefix at a time). Rejects on error. */
  lookup(prefix: string, now: () => number): Promise<TrackedDevice | null> {
    const running = this.#inFlight.get(prefix);
    if (running) return running;
    const p = (async () => {
      try {
        const device = await this.#directory.byPrefix(prefix);
        const existing = this.#known.get(prefix);
        if (existing) return existing;
        if (!device) {
          // Random prefixes (an open broker) must not grow this without end.
          if (this.#unknown.size >= MAX_UNKNOWN) this.#unknown.clear();
          this.#unknown.set(prefix, now());
          return null;
        }
        return this.#track(device, now());
      } finally {
        this.#inFlight.delete(prefix);
      }
    })();
    this.#inFlight.set(prefix, p);
    return p;
  }

  #refresh(t: TrackedDevice, now: number): void {
    t.refreshing = true;
    const prefix = t.device.prefix;
    const p: Promise<void> = this.#directory.byPrefix(prefix).then((device) => {
      t.checkedAt = now;
      if (!device) {
        this.#known.delete(prefix);
        this.#unknown.set(prefix, now);
      } else {
        t.device = device;
        t.serial = device.serial;
      }
    }, (error) => {
      t.checkedAt = now;
      this.#onError(error, prefix);
    }).finally(() => {
      t.refreshing = false;
      this.#refreshes.delete(p);
    });
    this.#refreshes.add(p);
  }

  /** Every tracked device. */
  all(): IterableIterator<TrackedDevice> {
    return this.#known.values();
  }

  /** How many devices are tracked. */
  get size(): number {
    return this.#known.size;
  }

  /** Resolves when no directory request is running. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0 || this.#refreshes.size > 0) {
      await Promise.allSettled([...this.#inFlight.values(), ...this.#refreshes]);
    }
  }
}
