/**
 * The embedded default (issue 12): with no Openpay keys configured, the portal starts the local
 * sandbox on 127.0.0.1 and talks to it with the same client as to Openpay, in test mode. Its
 * webhooks go to the portal's own `/api/webhooks/openpay` with the configured webhook
 * credentials (generated for this run when none are set). Its merchant, key and charges are
 * kept in the data folder (`state.ts`): after a restart the references handed out are still
 * known and still payable.
 */
import type { OpenpaySettings } from "../../platform/config.ts";
import { type OpenpaySandbox, startOpenpaySandbox } from "./mod.ts";
import { readSandboxState, sandboxStateFile } from "./state.ts";

function randomText(n: number): string {
  const abc = "abcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => abc[b % abc.length]).join(
    "",
  );
}

/**
 * Starts the local sandbox for a portal listening on `portalPort` with its state in `dataDir`;
 * the settings to use.
 */
export async function startLocalOpenpay(
  settings: OpenpaySettings,
  portalPort: number,
  dataDir: string,
  onLog?: (line: string) => void,
): Promise<{ settings: OpenpaySettings; sandbox: OpenpaySandbox }> {
  const stateFile = sandboxStateFile(dataDir);
  const kept = await readSandboxState(stateFile);
  const merchantId = kept?.merchant_id ?? `mlocal${randomText(14)}`;
  const privateKey = kept?.private_key ?? `sk_${randomText(32)}`;
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
    stateFile,
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
