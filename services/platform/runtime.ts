/**
 * What the running process reports of its parts that are not stores (the MQTT broker and
 * ingest), for `GET /health` and `GET /metrics`. `main.ts` sets them on the dependencies once
 * MQTT runs (`deps.runtime`); without them (scripts, tests) the MQTT check reports that
 * nothing runs here.
 */
import type { IngestStats } from "../../core/ingest_health.ts";

/** The process's MQTT side now. */
export interface MqttState {
  /** Whether this process's ingest is connected to its broker; null: ingest runs apart. */
  ingestConnected: boolean | null;
  /** Clients connected to the embedded broker; null: an external broker. */
  clients: number | null;
}

/** How the running parts are read. */
export interface RuntimeProbes {
  mqtt(): MqttState;
  /** This process's ingest counters, or null when ingest runs apart. */
  ingest(): IngestStats | null;
}
