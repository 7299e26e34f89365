/**
 * Online and offline tracking from the messages of each device: the online topic (`true`,
 * `false`; the Last Will is `false` too), silence longer than `silenceMs`, and any message
 * after offline. Transitions go to the {@link StatusSink} in order per device; the devices a
 * sweep finds silent go together, in one bulk report (`offlineMany`). Errors are caught and
 * handed to `onError`, never thrown at the caller.
 */
import type { OfflineReason, StatusSink } from "./contract.ts";

/** The status ingest believes a device has. */
type TrackedState = "unknown" | "online" | "offline";

/** The status fields of one tracked device. */
export interface TrackedStatus {
  serial: string;
  state: TrackedState;
  /** Epoch ms of the last message (or of the start of tracking). */
  lastAt: number;
}

/** Tracks transitions and reports them to the sink. */
export class StatusTracker {
  #sink: StatusSink;
  #silenceMs: number;
  #onError: (what: "seen" | "online" | "offline", serial: string, error: unknown) => void;
  #chains = new Map<string, Promise<void>>();

  constructor(
    sink: StatusSink,
    silenceMs: number,
    onError: (what: "seen" | "online" | "offline", serial: string, error: unknown) => void,
  ) {
    this.#sink = sink;
    this.#silenceMs = silenceMs;
    this.#onError = onError;
  }

  /**
   * A message arrived from the device at `at`. `online` is the payload of the online
   * topic, or undefined for any other message (which also means the device is online).
   */
  message(t: TrackedStatus, at: number, online: boolean | undefined): void {
    if (at > t.lastAt) t.lastAt = at;
    try {
      this.#sink.seen(t.serial, at);
    } catch (error) {
      this.#onError("seen", t.serial, error);
    }
    if (online === false) {
      if (t.state !== "offline") this.#transition(t, "offline", at, "online_false");
    } else if (t.state !== "online") {
      this.#transition(t, "online", at);
    }
  }

  /**
   * Marks offline every device not heard from for `silenceMs` (online ones, and unknown
   * ones tracked since start: the sink tells those that never connected apart), reported
   * together in one bulk call. Returns how many went offline.
   */
  sweep(devices: Iterable<TrackedStatus>, now: number): number {
    const silent: TrackedStatus[] = [];
    for (const t of devices) {
      if (t.state !== "offline" && now - t.lastAt >= this.#silenceMs) silent.push(t);
    }
    const sink = this.#sink;
    if (silent.length === 0) return 0;
    if (!sink.offlineMany) {
      for (const t of silent) this.#transition(t, "offline", now, "silence");
      return silent.length;
    }
    const serials = silent.map((t) => {
      t.state = "offline";
      return t.serial;
    });
    // After every transition of these devices reported before; theirs wait for it.
    const before = serials.flatMap((s) => this.#chains.get(s) ?? []);
    const report = async () => {
      try {
        await sink.offlineMany!(serials.map((serial) => ({ serial, ts: now, reason: "silence" })));
      } catch (error) {
        this.#onError("offline", `${serials.length} devices`, error);
      }
    };
    const done = before.length === 0 ? report() : Promise.all(before).then(report);
    for (const s of serials) this.#chains.set(s, done);
    done.then(() => {
      for (const s of serials) if (this.#chains.get(s) === done) this.#chains.delete(s);
    });
    return silent.length;
  }

  /** Resolves when every reported transition has been handled by the sink. */
  async settled(): Promise<void> {
    while (this.#chains.size > 0) await Promise.all([...this.#chains.values()]);
  }

  #transition(
    t: TrackedStatus,
    state: "online" | "offline",
    at: number,
    reason?: OfflineReason,
  ): void {
    t.state = state;
    const serial = t.serial;
    const call = async () => {
      try {
        if (state === "online") await this.#sink.online(serial, at);
        else await this.#sink.offline(serial, at, reason!);
      } catch (error) {
        this.#onError(state, serial, error);
      }
    };
    const previous = this.#chains.get(serial);
    const next = previous ? previous.then(call) : call();
    this.#chains.set(serial, next);
    next.then(() => {
      if (this.#chains.get(serial) === next) this.#chains.delete(serial);
    });
  }
}
