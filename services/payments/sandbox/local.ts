/**
 * The embedded default (issue 12): with no Openpay keys configured, the portal starts the local
 * sandbox on 127.0.0.1 and talks to it with the same client as to Openpay, in test mode. Its
 * webhooks go to the portal's own `/api/webhooks/openpay` with the configured webhook
 * credentials (generated for this run when none are set).
 */
import type { OpenpaySettings } from "../../platform/config.ts";
import { type OpenpaySandbox, startOpenpaySandbox } from "./mod.ts";

function randomText(n: number): string {
  const abc = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => abc[b % abc.length]).join(
    "",
  );
}

/** Starts the local sandbox for a portal listening on `portalPort`; the settings to use. */
export async function startLocalOpenpay(
  settings: OpenpaySettings,
  portalPort: number,
  onLog?: (line: string) => void,
): Promise<{ settings: OpenpaySettings; sandbox: OpenpaySandbox }> {
  const merchantId = `mlocal${randomText(14)}`;
  const privateKey = `sk_${randomText(32)}`;
  const webhookUser = settings.webhookUser ?? "openpay";
  const webhookPassword = settings.webhookPassword ?? randomText(24);
  const sandbox = await startOpenpaySandbox({
    merchantId,
    privateKey,
    webhook: {
      url: `http://127.0.0.1:${portalPort}/api/webhooks/openpay`,
      user: webhookUser,
      password: webhookPassword,
    },
    onLog,
  });
  return {
    sandbox,
    settings: {
      merchantId,
      privateKey,
      production: false,
      apiUrl: sandbox.url,
      webhookUser,
      webhookPassword,
    },
  };
}
