/** The long-lived things every use case is built from. */
import type { Config } from "./platform/config.ts";
import type { I18n } from "./platform/i18n.ts";
import type { Logger } from "./platform/log.ts";
import type { ThrottlePolicy } from "../db/throttle.ts";
import type { TelemetryStore } from "../db/telemetry/mod.ts";
import type { CertificateAuthority } from "./platform/pki.ts";
import type { RuntimeProbes } from "./platform/runtime.ts";
import type { Actor } from "../core/audit.ts";

/** What `createApp`, the scripts and the services are given (nothing opens a store itself). */
export interface Deps {
  kv: Deno.Kv;
  config: Config;
  i18n: I18n;
  /** Secret that signs access tokens. */
  secret: string;
  /** The clock, in epoch milliseconds. */
  now: () => number;
  log: Logger;
  throttle: ThrottlePolicy;
  /** The time-series store of meter readings. */
  telemetry: TelemetryStore;
  /** The portal's certificate authority (sensor client and broker server certificates). */
  pki: CertificateAuthority;
  /** The broker and ingest of this process, once running (`services/platform/runtime.ts`). */
  runtime?: RuntimeProbes;
  /** Who acts, for a signed-in request's changes (audited with it; absent: nobody to name). */
  actor?: Actor;
}
