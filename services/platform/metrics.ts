/**
 * The portal's metrics in Prometheus' text format, through npm `prom-client` (it runs under
 * Deno as under Node, its default process metrics included: memory, CPU, event-loop lag).
 * One registry per app, so that two apps in one process (tests) count apart.
 *
 * - HTTP: `portal_http_requests_total` and `portal_http_request_duration_seconds` by method,
 *   route pattern (Hono's matched route, never the raw URL: bounded cardinality) and status.
 * - Billing runs (`POST /unified-billing/process`): `portal_billing_runs_total{outcome}`,
 *   `portal_billing_run_duration_seconds`.
 * - Read at each scrape: ingest (`deps.runtime`), the telemetry store's backlog, MQTT
 *   connections, the outbox's backlog, payments (charges) by state.
 */
import client from "prom-client";
import type { Deps } from "../deps.ts";
import { outboxBacklog } from "../../db/outbox_health.ts";
import { chargesByStatus } from "../../db/payment_counts.ts";
import { DROP_REASONS, type DropReason } from "../../core/ingest_health.ts";

/** Drop reasons where the message was refused at the door (not read), the rest dropped. */
const REFUSED: ReadonlySet<DropReason> = new Set(["unknown_device", "oversized", "flood"]);

/** Buckets of request latencies (seconds). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Buckets of billing runs (seconds). */
const BILLING_BUCKETS = [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** The metrics of one app. */
export interface Metrics {
  /** Counts a request answered: method, route pattern, status, seconds. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** Counts a billing run that answered `status` after `seconds`. */
  billingRun(status: number, seconds: number): void;
  /** The text a scrape answers, and its content type. */
  scrape(): Promise<{ body: string; contentType: string }>;
}

/** Labelled values of a metric, read at each scrape. */
type Read = () => Promise<[Record<string, string>, number][]> | [Record<string, string>, number][];

/**
 * A metric whose values are read from elsewhere at each scrape: a counter (totals kept by
 * their owner; zeros left out) or a gauge.
 */
function readAtScrape(
  registry: client.Registry,
  kind: "counter" | "gauge",
  name: string,
  help: string,
  labelNames: string[],
  read: Read,
) {
  const collect = async (set: (labels: Record<string, string>, value: number) => void) => {
    for (const [labels, value] of await read()) set(labels, value);
  };
  const options = { name, help, labelNames, registers: [registry] };
  return kind === "counter"
    ? new client.Counter({
      ...options,
      async collect() {
        this.reset();
        await collect((labels, value) => {
          if (value > 0) this.inc(labels, value);
        });
      },
    })
    : new client.Gauge({
      ...options,
      async collect() {
        this.reset();
        await collect((labels, value) => this.set(labels, value));
      },
    });
}

/** The metrics of an app over `deps`. */
export function createMetrics(deps: Deps): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const requests = new client.Counter({
    name: "portal_http_requests_total",
    help: "HTTP requests answered, by method, route pattern and status",
    labelNames: ["method", "route", "status"],
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: "portal_http_request_duration_seconds",
    help: "Time to answer an HTTP request, by method, route pattern and status",
    labelNames: ["method", "route", "status"],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const runs = new client.Counter({
    name: "portal_billing_runs_total",
    help: "Billing runs asked of the portal, by outcome (ok, refused, failed)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const runTime = new client.Histogram({
    name: "portal_billing_run_duration_seconds",
    help: "Time a billing run took",
    buckets: BILLING_BUCKETS,
    registers: [registry],
  });
  const counter = (name: string, help: string, labelNames: string[], read: Read) =>
    readAtScrape(registry, "counter", name, help, labelNames, read);
  const gauge = (name: string, help: string, labelNames: string[], read: Read) =>
    readAtScrape(registry, "gauge", name, help, labelNames, read);
  const ingest = () => deps.runtime?.ingest() ?? null;
  const stats = () => deps.telemetry.stats();
  /** Totals of one value each, absent while unknown (no ingest in this process). */
  const totals: [string, string, () => number | null | undefined][] = [
    ["portal_ingest_messages_received_total", "MQTT messages received", () => ingest()?.received],
    [
      "portal_ingest_samples_stored_total",
      "Readings accepted and handed to the telemetry store",
      () => ingest()?.stored,
    ],
    [
      "portal_telemetry_samples_written_total",
      "Samples the telemetry store wrote",
      () => stats().samplesWritten,
    ],
    [
      "portal_telemetry_batches_total",
      "Batches the telemetry store wrote",
      () => stats().batches ?? 0,
    ],
    [
      "portal_telemetry_batch_seconds_total",
      "Seconds the telemetry store's batches took altogether (over batches_total: the mean latency)",
      () => stats().batchSeconds ?? 0,
    ],
    [
      "portal_telemetry_failed_batches_total",
      "Batches the telemetry store failed to write",
      () => stats().failedWrites ?? 0,
    ],
  ];
  for (const [name, help, read] of totals) {
    counter(name, help, [], () => {
      const value = read();
      return value == null ? [] : [[{}, value]];
    });
  }
  counter(
    "portal_ingest_messages_dropped_total",
    "Messages not stored, by reason; kind refused: turned away unread (unknown device, too large, flood)",
    ["reason", "kind"],
    () => {
      const s = ingest();
      if (!s) return [];
      return DROP_REASONS.map((r) => [
        { reason: r, kind: REFUSED.has(r) ? "refused" : "dropped" },
        s.dropped[r],
      ]);
    },
  );
  gauge(
    "portal_telemetry_backlog_samples",
    "Samples queued for the telemetry store, not yet written",
    [],
    () => [[{}, deps.telemetry.stats().pending]],
  );
  gauge("portal_mqtt_connected_clients", "Clients connected to the embedded broker", [], () => {
    const clients = deps.runtime?.mqtt().clients;
    return clients == null ? [] : [[{}, clients]];
  });
  gauge("portal_ingest_connected", "1 when this process's ingest is connected", [], () => {
    const connected = deps.runtime?.mqtt().ingestConnected;
    return connected == null ? [] : [[{}, connected ? 1 : 0]];
  });
  gauge("portal_outbox_pending", "Messages waiting in the outbox, by whether past due", [
    "due",
  ], async () => {
    const b = await outboxBacklog(deps.kv, deps.now());
    return [[{ due: "later" }, b.pending - b.overdue], [{ due: "past" }, b.overdue]];
  });
  gauge("portal_payments", "SPEI charges by state", ["state"], async () => {
    const counts = await chargesByStatus(deps.kv);
    return Object.entries(counts).map(([state, n]) => [{ state }, n]);
  });
  return {
    request(method, route, status, seconds) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    billingRun(status, seconds) {
      const outcome = status < 300 ? "ok" : status < 500 ? "refused" : "failed";
      runs.inc({ outcome });
      if (outcome === "ok") runTime.observe(seconds);
    },
    async scrape() {
      return { body: await registry.metrics(), contentType: registry.contentType };
    },
  };
}
