/**
 * Formatting of the payment pages (spec 001 section 9): Mexican pesos and Spanish dates and
 * month names whatever the reader's language, the badge colour of each payment state, and the
 * 24 h expiring-soon rule.
 */
import { PAYMENT_COLOURS, type PaymentStatus } from "../../core/payment.ts";

/** The spec's expiring-soon window of a reference. */
const EXPIRING_SOON_MS = 24 * 3_600_000;

const MXN = new Intl.NumberFormat("es-MX", { style: "currency", currency: "MXN" });

/** Cents as Mexican pesos: `44834` → `$448.34 MXN` (another currency keeps its code). */
export function mxn(cents: number, currency = "MXN"): string {
  const units = Math.round(cents) / 100;
  return currency === "MXN" ? `${MXN.format(units)} MXN` : `${units.toFixed(2)} ${currency}`;
}

const ES_MONTHS = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
];

/** A `YYYY-MM-DD` (or ISO time, read in `offsetMinutes`) as `28 de noviembre de 2026`. */
export function esDate(text: string | null, offsetMinutes = 0, withTime = false): string {
  if (!text) return "—";
  const ms = text.length === 10 ? Date.parse(`${text}T00:00:00Z`) : Date.parse(text);
  if (Number.isNaN(ms)) return text;
  const d = new Date(text.length === 10 ? ms : ms + offsetMinutes * 60_000);
  const day = `${d.getUTCDate()} de ${ES_MONTHS[d.getUTCMonth()]} de ${d.getUTCFullYear()}`;
  if (!withTime) return day;
  return `${day}, ${d.toISOString().slice(11, 16)}`;
}

/** A period in Spanish month names: `2026-10` → `Octubre 2026`, `2026-09-10` → `Septiembre - Octubre 2026`. */
export function esPeriod(period: string): string {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(period);
  if (!m) return period;
  const name = (n: string) => {
    const s = ES_MONTHS[Number(n) - 1] ?? n;
    return s[0].toUpperCase() + s.slice(1);
  };
  return m[3] ? `${name(m[2])} - ${name(m[3])} ${m[1]}` : `${name(m[2])} ${m[1]}`;
}

/** The badge class of a payment state (spec 001 section 4 colours). */
export function paymentBadge(s: PaymentStatus): string {
  return `badge badge-${PAYMENT_COLOURS[s]}`;
}

/** Whether a reference expires within 24 h of `now`. */
export function expiringSoon(expiry: string | null, now: number): boolean {
  const ms = expiry ? Date.parse(expiry) : NaN;
  return !Number.isNaN(ms) && ms > now && ms - now <= EXPIRING_SOON_MS;
}
