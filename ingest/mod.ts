/**
 * MQTT ingest: the public surface. `runIngest` / `startIngest` subscribe to the meters'
 * topics and feed the telemetry store and the status sink; `startEmbeddedBroker` is the
 * broker the portal runs when no `MQTT_URL` is set; `interpretMessage` is the pure Shelly
 * message interpretation; `ingest/sim.ts` and `ingest/sim_meter.ts` simulate meters.
 */
export type { DeviceDirectory, IngestDevice, OfflineReason, StatusSink } from "./contract.ts";
export {
  runIngest,
  type RunIngestDeps,
  type RunIngestSettings,
  type RunningIngest,
} from "./run.ts";
export {
  type Ingest,
  INGEST_TOPICS,
  type IngestOptions,
  startIngest,
  type SubscriberStats,
} from "./subscriber.ts";
export {
  type Credentials,
  type EmbeddedBroker,
  type EmbeddedBrokerOptions,
  startEmbeddedBroker,
} from "./broker.ts";
export { DEFAULT_LIMITS, type IngestLimits, IngestProcessor } from "./processor.ts";
export { DROP_REASONS, type DropReason, type IngestStats } from "../core/ingest_health.ts";
export {
  DEFAULT_INTERPRET,
  type Interpretation,
  interpretMessage,
  type InterpretOptions,
  newMeterState,
  splitDeviceTopic,
} from "./shelly.ts";
export type { IngestLog } from "./_log.ts";
