/**
 * The exchange rate of an invoice in a currency other than MXN (issue 31). CFDI 4.0 requires
 * `TipoCambio` (Facturapi's `exchange`: MXN per unit, at most 6 decimals) when `Moneda` is not
 * MXN (Anexo 20, c_Moneda); the portal takes it from `FACTURAPI_EXCHANGE_RATES`
 * (`USD=17.25,EUR=18.9`) and issues no such invoice without one. Pure.
 */
import { z } from "zod";

/** Facturapi's settings: key, base URL, the issuer's ZIP, a call's timeout, exchange rates. */
export interface FacturapiConfig {
  key: string | null;
  url: string;
  issuerZip: string | null;
  timeoutMs?: number;
  /** MXN per unit of another currency. */
  exchange?: Readonly<Record<string, number>>;
}

const RATE = /^[A-Z]{3}=\d{1,6}(\.\d{1,6})?$/;

/** `FACTURAPI_EXCHANGE_RATES` read as rates by currency; a malformed entry refuses the start. */
export const exchangeRatesSchema = z.string().optional().transform((text, ctx) => {
  const out: Record<string, number> = {};
  for (const part of (text ?? "").split(",").map((p) => p.trim()).filter(Boolean)) {
    const [code, rate] = part.split("=");
    if (!RATE.test(part) || !(Number(rate) > 0)) {
      ctx.addIssue({
        code: "custom",
        message: "FACTURAPI_EXCHANGE_RATES must read like USD=17.25,EUR=18.9 (MXN per unit)",
      });
      return z.NEVER;
    }
    out[code] = Number(rate);
  }
  return out;
});

/**
 * The `exchange` a body in `currency` carries: none for MXN, the configured rate otherwise, or
 * null when there is none (the invoice cannot be issued).
 */
export function exchangeFor(
  currency: string,
  rates: Readonly<Record<string, number>> | undefined,
): { exchange?: number } | null {
  if (currency === "MXN") return {};
  const rate = rates?.[currency];
  return rate && rate > 0 ? { exchange: rate } : null;
}
