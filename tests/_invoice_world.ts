/**
 * The invoices' world (issue 31): the payments world with the local Facturapi sandbox
 * configured, and fiscal data stored as the Settings card stores it.
 */
import { fiscalSchema } from "../core/fiscal.ts";
import { type PaymentWorld, world } from "./_payment_world.ts";
import { type FacturapiSandbox, startFacturapiSandbox } from "../services/invoices/sandbox/mod.ts";
import { saveFiscalData } from "../services/invoices/mod.ts";
import { getUser } from "../db/users.ts";

/** The sandbox's secret key in these tests. */
export const KEY = "sk_test_portal_tests";

/** Tenant A's fiscal data (a natural person, regime 612). */
export const FISCAL_A = {
  rfc: "LOPA800101AB1",
  legal_name: "ANA MARIA LOPEZ",
  tax_system: "612",
  zip: "64000",
  use: "G03",
};

/** The owner's fiscal data (a company, regime 601). */
export const FISCAL_OWNER = {
  rfc: "ENO8910131AA",
  legal_name: "ENERGIA DEL NORTE",
  tax_system: "601",
  zip: "06600",
  use: "G03",
};

/** A payments world with the Facturapi sandbox configured. */
export async function invoicing(fn: (p: PaymentWorld, f: FacturapiSandbox) => Promise<void>) {
  const f = await startFacturapiSandbox({ key: KEY });
  try {
    await world(async (p) => {
      p.w.t.deps.config.facturapi = { key: KEY, url: f.url, issuerZip: "64000", timeoutMs: 2000 };
      await fn(p, f);
    });
  } finally {
    await f.stop();
  }
}

/** Stores a person's fiscal data as the Settings card does: checked by its schema first. */
export async function fiscal(
  p: { w: { t: { deps: PaymentWorld["w"]["t"]["deps"] } } },
  userId: number,
  data: Record<string, string>,
) {
  const checked = fiscalSchema.parse(data);
  await saveFiscalData(p.w.t.deps, (await getUser(p.w.t.deps.kv, userId))!, checked);
}

/** Facturapi's invoice creations received. */
export const posts = (f: FacturapiSandbox) =>
  f.requests.filter((r) => r.method === "POST" && r.path === "/v2/invoices");
