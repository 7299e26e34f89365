/**
 * `deno task openpay-sandbox`: the local Openpay-compatible sandbox on its own (test mode).
 *
 * - `deno task openpay-sandbox [--port 4010]` serves it on 127.0.0.1 with the merchant and key of
 *   `OPENPAY_MERCHANT_ID`/`OPENPAY_PRIVATE_KEY` (or `msandbox000000000000` / `sk_sandbox`), sending
 *   webhooks to `--webhook-url` (default `http://127.0.0.1:$PORT/api/webhooks/openpay`, the
 *   portal's port from `PORT` or 8000) with `OPENPAY_WEBHOOK_USER`/`OPENPAY_WEBHOOK_PASSWORD`. It
 *   prints the settings to start the portal with.
 * - `deno task openpay-sandbox pay <charge id>` simulates the tenant's transfer on a running
 *   sandbox: the charge completes and `charge.succeeded` is delivered to the portal. The sandbox
 *   is found by `OPENPAY_API_URL`, `OPENPAY_MERCHANT_ID`, `OPENPAY_PRIVATE_KEY` (as the portal
 *   prints them in test mode), else by the state it keeps in `DATA_DIR` (default `./data`; the
 *   portal's own sandbox of `deno task demo` or `start` without keys), else
 *   `http://127.0.0.1:4010`.
 *
 * Either way the sandbox keeps its merchant, key and charges in `DATA_DIR`.
 */
import { parseArgs } from "node:util";
import { basicAuth, startOpenpaySandbox } from "../services/payments/mod.ts";
import { readSandboxState, sandboxStateFile } from "../services/payments/sandbox/state.ts";

const enc = new TextEncoder();
const out = (l: string) => Deno.stdout.writeSync(enc.encode(l + "\n"));
const err = (l: string) => Deno.stderr.writeSync(enc.encode(l + "\n"));

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      port: { type: "string", default: "4010" },
      "webhook-url": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    out("usage: deno task openpay-sandbox [--port 4010] [--webhook-url URL]");
    out("       deno task openpay-sandbox pay <charge id>");
    return 0;
  }
  const env = Deno.env.toObject();
  const stateFile = sandboxStateFile(env.DATA_DIR || "./data");
  const kept = await readSandboxState(stateFile).catch(() => null);
  const merchantId = env.OPENPAY_MERCHANT_ID || kept?.merchant_id || "msandbox000000000000";
  const privateKey = env.OPENPAY_PRIVATE_KEY || kept?.private_key || "sk_sandbox";
  if (positionals[0] === "pay") {
    const id = positionals[1];
    if (!id) {
      err("pay needs the charge id (the admin's Payments page shows it)");
      return 2;
    }
    const base = (env.OPENPAY_API_URL || kept?.url || `http://127.0.0.1:${values.port}`)
      .replace(/\/+$/, "");
    try {
      const res = await fetch(
        `${base}/v1/${merchantId}/charges/${encodeURIComponent(id)}/simulate-transfer`,
        { method: "POST", headers: { authorization: basicAuth(privateKey) }, body: "{}" },
      );
      const body = await res.json().catch(() => ({}));
      if (!res.ok) {
        err(`the sandbox answered ${res.status}: ${body.description ?? ""}`);
        return 1;
      }
      out(`charge ${id} paid (${body.amount} MXN); charge.succeeded is on its way to the portal`);
      return 0;
    } catch (e) {
      err(`no sandbox at ${base}: ${String(e)}`);
      return 1;
    }
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    err(`--port must be a whole number from 1 to 65535, got "${values.port}"`);
    return 2;
  }
  const user = env.OPENPAY_WEBHOOK_USER || "openpay";
  const password = env.OPENPAY_WEBHOOK_PASSWORD || "sandbox-webhook-password";
  const url = values["webhook-url"] ||
    `http://127.0.0.1:${env.PORT || 8000}/api/webhooks/openpay`;
  await Deno.mkdir(env.DATA_DIR || "./data", { recursive: true });
  const sandbox = await startOpenpaySandbox({
    merchantId,
    privateKey,
    port,
    webhook: { url, user, password },
    onLog: out,
    stateFile,
  });
  out(`Openpay sandbox at ${sandbox.url}, webhooks to ${url}`);
  out("Start the portal with:");
  out(`  OPENPAY_MERCHANT_ID=${merchantId} OPENPAY_PRIVATE_KEY=${privateKey} \\`);
  out(`  OPENPAY_API_URL=${sandbox.url} OPENPAY_WEBHOOK_USER=${user} \\`);
  out(`  OPENPAY_WEBHOOK_PASSWORD=${password} deno task start`);
  const stop = () => sandbox.stop().then(() => Deno.exit(0));
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await new Promise(() => {});
  return 0;
}

if (import.meta.main) Deno.exit(await main());
