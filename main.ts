/**
 * The composition root: reads the configuration, opens the stores, creates the first
 * admin on an empty store, optionally seeds the demo, serves HTTP and shuts down cleanly.
 *
 * Flags: `--demo` seeds demo accounts and access codes; `--dev` marks a development run.
 */
// First: it chooses React's production build before anything loads React.
import "./services/platform/react_build.ts";
import { startOverdueSweep } from "./services/billing/mod.ts";
import { ConfigError, loadConfig } from "./services/platform/config.ts";
import { loadAssets } from "./components/assets.ts";
import { createLogger } from "./services/platform/log.ts";
import { ensureAdmin } from "./services/accounts.ts";
import { DemoSeedError, seedDemo } from "./services/demo.ts";
import { startDemoMeters } from "./services/demo_devices.ts";
import { createApp } from "./routes/mod.ts";
import type { AppDeps } from "./routes/_deps.ts";
import { startMqtt } from "./services/devices/mqtt_runtime.ts";
import { startAlertTimer } from "./services/alerts/mod.ts";
import { CertificateAuthorityError } from "./services/platform/pki.ts";
import { openStores, SchemaTooNew, TelemetryStoreRefused } from "./services/platform/stores.ts";
import {
  openpayConfigured,
  startLocalOpenpay,
  startReconciliation,
  webhooksStop,
} from "./services/payments/mod.ts";
import { closePasswordPool } from "./services/platform/passwords.ts";
import { startInvoiceWorker, startLocalFacturapi } from "./services/invoices/mod.ts";
import {
  createMailSender,
  createWhatsAppSender,
  loadMessageSettings,
  MessageSettingsError,
  startMessageWorker,
} from "./services/messages/mod.ts";
import { startBackupSchedule } from "./services/platform/backup_schedule.ts";
import { startTelemetryPrune } from "./services/platform/telemetry_prune.ts";

/** How long a shutdown may take after SIGINT or SIGTERM before the process exits regardless. */
const SHUTDOWN_DEADLINE_MS = 8_000;
/** How long requests under way at shutdown may still run. */
const REQUEST_GRACE_MS = 3_000;

const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

async function main() {
  let config, messageSettings;
  try {
    const dev = Deno.args.includes("--dev") ? { PORTAL_ENV: "development" } : {};
    config = loadConfig({ ...Deno.env.toObject(), ...dev });
    messageSettings = loadMessageSettings(Deno.env.toObject());
  } catch (e) {
    if (e instanceof ConfigError || e instanceof MessageSettingsError) {
      Deno.stderr.writeSync(new TextEncoder().encode(e.message + "\n"));
      Deno.exit(2);
    }
    throw e;
  }
  const log = createLogger(config.logLevel);
  let stores;
  try {
    // With ingest apart (INGEST=off), the ingest process writes the SQLite telemetry file and
    // this portal only reads it (several portals may); QuestDB is read and written by all.
    stores = await openStores(config, log, { readTelemetryOnly: !config.mqtt.ingest });
  } catch (e) {
    if (
      e instanceof CertificateAuthorityError || e instanceof TelemetryStoreRefused ||
      e instanceof SchemaTooNew
    ) {
      Deno.stderr.writeSync(new TextEncoder().encode(e.message + "\n"));
      Deno.exit(2);
    }
    throw e;
  }
  // Without Openpay keys the local sandbox stands in (test mode), spoken to like Openpay; its
  // charges are kept in the data folder (once the stores opened: a refused start writes nothing).
  if (!openpayConfigured(config.openpay)) await Deno.mkdir(config.dataDir, { recursive: true });
  const localOpenpay = openpayConfigured(config.openpay) ? null : await startLocalOpenpay(
    config.openpay,
    config.port,
    config.dataDir,
    (line) => log.log("debug", "openpay sandbox", { line }),
  );
  if (localOpenpay) stores.deps.config = config = { ...config, openpay: localOpenpay.settings };
  // Without FACTURAPI_KEY the local Facturapi sandbox issues test invoices ("sin validez fiscal").
  const localFacturapi = config.facturapi.key ? null : await startLocalFacturapi(config);
  if (localFacturapi) {
    stores.deps.config = config = { ...config, facturapi: localFacturapi.settings };
  }
  // Messages leave through the outbox's worker: SMTP, or .eml files in the outbox folder.
  const mailer = createMailSender(messageSettings);
  const whatsapp = messageSettings.whatsapp ? createWhatsAppSender(messageSettings.whatsapp) : null;
  const messages = startMessageWorker(stores.deps, { email: mailer, whatsapp });
  const invoices = startInvoiceWorker(stores.deps, 10_000);
  const deps: AppDeps = {
    ...stores.deps,
    assets: await loadAssets(),
    mail: { where: mailer.where, folder: mailer.folder, whatsapp: !!whatsapp, kick: messages.kick },
  };
  out(`Mail: ${mailer.where}${whatsapp ? ", WhatsApp Cloud API" : ""}`);

  const admin = await ensureAdmin(deps);
  if (admin) {
    out(`Created the first admin: ${admin.email}`);
    if (admin.password) {
      out(`  Generated password (shown once, change it in Settings): ${admin.password}`);
    }
  }
  let demo = null;
  try {
    demo = Deno.args.includes("--demo") ? await seedDemo(deps) : null;
  } catch (e) {
    if (!(e instanceof DemoSeedError)) throw e;
    Deno.stderr.writeSync(new TextEncoder().encode(e.message + "\n"));
    await stores.close();
    Deno.exit(1);
  }
  if (demo) {
    out("Demo data:");
    for (const a of demo.accounts) out(`  ${a.role.padEnd(8)} ${a.email} / ${a.password}`);
    for (const c of demo.codes) {
      out(`  access code for ${c.role === "user" ? "tenant" : c.role}: ${c.code}`);
    }
  }

  const mqtt = await startMqtt(deps);
  // What /health and /metrics read of the broker and ingest (services/platform/runtime.ts).
  deps.runtime = {
    mqtt: () => ({
      ingestConnected: mqtt.ingest ? mqtt.ingest.ingest.stats().connected : null,
      clients: mqtt.broker ? mqtt.broker.clients() : null,
    }),
    ingest: () => mqtt.ingest?.ingest.stats() ?? null,
  };
  const backups = startBackupSchedule(deps);
  out(`MQTT: devices connect to ${mqtt.url}${mqtt.ingest ? "" : " (ingest runs apart)"}`);
  if (mqtt.broker?.tlsUrl) {
    const required = config.mqtt.requireClientCert ? ", client certificate required" : "";
    out(`  MQTT over TLS: ${mqtt.broker.tlsUrl} (CA: ${config.dataDir}/ca.pem${required})`);
  }
  const meters = demo ? await startDemoMeters(deps, mqtt.url, demo.meters) : null;
  if (meters) out(`  ${demo!.meters.length} simulated meters publish every 10 s`);
  // Raw readings past the retention are pruned by a process that writes them (this one with
  // ingest, else the ingest process), in one such process at a time.
  const prune = config.mqtt.ingest ? startTelemetryPrune(deps) : null;
  // Unpaid bills past their due date become overdue (late fee once, tenant told): at start-up,
  // then hourly, in the one process holding the sweep's lease.
  const sweep = startOverdueSweep(deps);
  // Silence, certificate and daily-use rules and the alerts' reminders: every minute, in the one
  // process holding the alert timer's lease.
  const alertTimer = startAlertTimer(deps);
  // Charges still in progress are asked about (a lost webhook still ends right) and expired:
  // at start-up, then on the store's five-minute schedule.
  const reconcile = startReconciliation(deps, {
    onSweep: (r) => {
      if (r.paid + r.expired + r.unknown > 0) log.log("info", "payments reconciled", { ...r });
    },
  });
  if (localOpenpay) {
    const s = localOpenpay.settings;
    out(`Payments: test mode, local Openpay sandbox at ${localOpenpay.sandbox.url}`);
    out(`  merchant ${s.merchantId}, key ${s.privateKey}; simulate a tenant's transfer with:`);
    out(
      `  OPENPAY_API_URL=${s.apiUrl} OPENPAY_MERCHANT_ID=${s.merchantId} ` +
        `OPENPAY_PRIVATE_KEY=${s.privateKey} deno task openpay-sandbox pay <charge id>`,
    );
  } else {
    out(`Payments: Openpay ${config.openpay.production ? "production" : "sandbox (test mode)"}`);
  }
  out(
    localFacturapi
      ? `Invoices: test mode, local Facturapi sandbox at ${localFacturapi.sandbox.url} (sin validez fiscal)`
      : `Invoices: Facturapi ${
        config.facturapi.key!.startsWith("sk_live_") ? "live" : "test mode"
      }`,
  );

  const app = createApp(deps);
  const ac = new AbortController();
  const server = serveNamingPort({
    port: config.port,
    hostname: config.hostname,
    signal: ac.signal,
    onListen: ({ port }) => {
      const host = config.hostname === "0.0.0.0" ? "localhost" : config.hostname;
      out(`Portal ready: sign in at http://${host}:${port}/login`);
    },
  }, (req, info) => app.fetch(req, { remoteAddr: info.remoteAddr }));

  let signalled: () => void = () => {};
  const stopping = new Promise<void>((resolve) => (signalled = resolve));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    log.log("info", "shutting down");
    ac.abort();
    signalled();
    // Whatever is still running (a store that does not answer), the process ends within
    // SHUTDOWN_DEADLINE_MS of the signal.
    Deno.unrefTimer(setTimeout(() => {
      log.log("warn", "shutdown deadline passed; exiting now", { ms: SHUTDOWN_DEADLINE_MS });
      Deno.exit(1);
    }, SHUTDOWN_DEADLINE_MS));
  };
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  // Requests under way get REQUEST_GRACE_MS to finish; the rest stops meanwhile or after.
  let served = false;
  await Promise.race([
    server.finished.then(() => (served = true)),
    stopping.then(() =>
      new Promise((resolve) => Deno.unrefTimer(setTimeout(resolve, REQUEST_GRACE_MS)))
    ),
  ]);
  await prune?.stop();
  await backups.stop();
  await sweep.stop();
  await reconcile.stop();
  await alertTimer.stop();
  await messages.stop();
  await invoices.stop();
  await localFacturapi?.sandbox.stop();
  await webhooksStop();
  await localOpenpay?.sandbox.stop();
  await meters?.stop();
  await mqtt.stop();
  await closePasswordPool();
  await stores.close();
  if (!served) {
    log.log("warn", "requests still running at shutdown were cut");
    Deno.exit(0);
  }
}

/** `Deno.serve`, whose refusal of a port in use says which address it was. */
function serveNamingPort(
  options: Deno.ServeTcpOptions,
  handler: Deno.ServeHandler<Deno.NetAddr>,
): Deno.HttpServer<Deno.NetAddr> {
  try {
    return Deno.serve(options, handler);
  } catch (e) {
    if (!(e instanceof Deno.errors.AddrInUse)) throw e;
    throw new Deno.errors.AddrInUse(`listen ${options.hostname}:${options.port}: ${e.message}`);
  }
}

/** Another program holds one of the portal's ports (HTTP, the broker's, a sandbox's). */
function addressInUse(error: unknown): error is Error {
  return error instanceof Deno.errors.AddrInUse ||
    (error instanceof Error && (error as { code?: unknown }).code === "EADDRINUSE");
}

if (import.meta.main) {
  try {
    await main();
  } catch (e) {
    if (!addressInUse(e)) throw e;
    // One line naming the settings to change, not a stack trace, and the status of a bad setting.
    Deno.stderr.writeSync(
      new TextEncoder().encode(
        `${e.message}. Another program uses this port: set PORT (web), MQTT_PORT or ` +
          `MQTT_TLS_PORT (devices) to a free one.\n`,
      ),
    );
    Deno.exit(2);
  }
}
