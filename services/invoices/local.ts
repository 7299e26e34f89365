/**
 * The embedded default (issue 31): without `FACTURAPI_KEY` the portal starts the local
 * Facturapi sandbox on 127.0.0.1 (test mode; its invoices say "sin validez fiscal") with its
 * invoices kept in the data folder, and talks to it with the same client as to Facturapi.
 */
import type { Config } from "../platform/config.ts";
import { type FacturapiSandbox, startFacturapiSandbox } from "./sandbox/mod.ts";
import { facturapiStateFile } from "./sandbox/state.ts";

/** Starts the sandbox; the Facturapi settings to use. */
export async function startLocalFacturapi(
  config: Config,
): Promise<{ settings: Config["facturapi"]; sandbox: FacturapiSandbox }> {
  const sandbox = await startFacturapiSandbox({
    key: "sk_test_local_sandbox",
    stateFile: facturapiStateFile(config.dataDir),
    ...(config.facturapi.issuerZip ? { issuer: { zip: config.facturapi.issuerZip } } : {}),
  });
  return {
    sandbox,
    settings: {
      ...config.facturapi,
      key: sandbox.key,
      url: sandbox.url,
      issuerZip: config.facturapi.issuerZip ?? "00000",
    },
  };
}
