/**
 * The issuer of the portal's invoices (issue 31): the operator's Facturapi organization (legal
 * name, RFC, fiscal regime, ZIP), read from Facturapi's organization API with the configured
 * key, shown read-only in the admin's Settings. Kept ten minutes per client so that Settings
 * does not ask Facturapi at every visit; an unanswered call is said, not cached.
 */
import type { Deps } from "../deps.ts";
import type { FacturapiClient } from "./facturapi_client.ts";
import { invoicingOf } from "./settings.ts";

/** What the admin's Settings shows of the issuer. */
export type IssuerView =
  | {
    state: "ok";
    legal_name: string;
    rfc: string;
    regime: string;
    zip: string;
    /** Test mode ("sin validez fiscal"). */
    test: boolean;
  }
  | { state: "unavailable"; error: string }
  | { state: "off" };

const KEEP_MS = 10 * 60_000;
/** A short wait: Settings must not hang on Facturapi. */
const TIMEOUT_MS = 5_000;
const kept = new WeakMap<FacturapiClient, { at: number; view: IssuerView }>();

/** The issuer's data, or why it cannot be read. */
export async function issuerOf(deps: Deps): Promise<IssuerView> {
  const client = invoicingOf(deps);
  if (!client) return { state: "off" };
  const got = kept.get(client);
  if (got && deps.now() - got.at < KEEP_MS) return got.view;
  let view: IssuerView;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const org = await Promise.race([
      client.organization(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("Facturapi did not answer in time")), TIMEOUT_MS);
      }),
    ]);
    const l = org.legal;
    view = {
      state: "ok",
      legal_name: l.legal_name,
      rfc: l.tax_id,
      regime: l.tax_system,
      zip: l.address?.zip ?? "",
      test: client.test,
    };
  } catch (e) {
    deps.log.log("warn", "Facturapi organization not read", { error: String(e) });
    return { state: "unavailable", error: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
  kept.set(client, { at: deps.now(), view });
  return view;
}
