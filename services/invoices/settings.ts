/**
 * The Facturapi client of a configuration (`FACTURAPI_KEY`, `FACTURAPI_URL`): one per config
 * object, null when no key is set (the portal then starts the local sandbox, `local.ts`, and
 * puts its key and address in the config before anything reads it).
 */
import type { Deps } from "../deps.ts";
import { type FacturapiClient, facturapiClient } from "./facturapi_client.ts";

const clients = new WeakMap<object, FacturapiClient | null>();

/** The client of `deps.config`, or null when invoicing is not configured. */
export function invoicingOf(deps: Pick<Deps, "config">): FacturapiClient | null {
  const s = deps.config.facturapi;
  if (!s) return null;
  if (!clients.has(s)) clients.set(s, s.key ? facturapiClient({ ...s, key: s.key }) : null);
  return clients.get(s)!;
}
