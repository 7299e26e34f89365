/**
 * What ingest needs from the rest of the portal, as interfaces: which devices exist
 * (topic prefixes and MQTT credentials) and where device status goes. `main.ts` wires the
 * KV-backed implementations from `services/`.
 */

/** A device as ingest knows it. */
export interface IngestDevice {
  serial: string;
  kind: "sensor" | "station";
  /** `sensor/{serial lowercased}` or `station/{serial}`. */
  prefix: string;
}

/** The devices ingest listens to and the broker lets in. */
export interface DeviceDirectory {
  /** Every known device. */
  list(): Promise<IngestDevice[]>;
  /** The device that owns a topic prefix, or null. */
  byPrefix(prefix: string): Promise<IngestDevice | null>;
  /** The device whose MQTT username and password these are, or null. */
  authenticate(username: string, password: string): Promise<IngestDevice | null>;
  /**
   * A value that moves with every device write, made by any process on the store: when it
   * moved, what ingest cached of the directory is asked again (without it: after the TTLs).
   */
  revision?(): Promise<string>;
}

/** Why a device went offline. */
export type OfflineReason = "online_false" | "will" | "silence";

/** Where ingest reports device status. */
export interface StatusSink {
  /** A message arrived from the device at `ts` (epoch ms). Called often: keep it cheap. */
  seen(serial: string, ts: number): void;
  /** The device is online (its online topic said true, or it spoke after being offline). */
  online(serial: string, ts: number): Promise<void>;
  /** The device went offline. */
  offline(serial: string, ts: number, reason: OfflineReason): Promise<void>;
  /**
   * Many devices went offline at once (a sweep): handled together, in bulk. Without it, each
   * goes to `offline()`.
   */
  offlineMany?(items: readonly OfflineChange[]): Promise<void>;
}

/** One device going offline, in a bulk report. */
export interface OfflineChange {
  serial: string;
  ts: number;
  reason: OfflineReason;
}
