/** Certificate health: how close a certificate is to its end (pure, time is a parameter). */

/** Days of validity a sensor certificate gets when issued or renewed. */
export const SENSOR_CERT_DAYS = 365;
/** Under this many days left the health is yellow. */
const WARN_DAYS = 30;
/** Under this many days left the health is red. */
const CRITICAL_DAYS = 7;

const DAY_MS = 86_400_000;

/** green: more than 30 days; yellow: under 30; red: under 7 or expired. */
export type CertificateHealth = "green" | "yellow" | "red";

/** Whole days from `now` until `notAfter` (negative once expired). */
export function daysRemaining(notAfter: number, now: number): number {
  return Math.floor((notAfter - now) / DAY_MS);
}

/** The health colour for a certificate that ends at `notAfter`. */
export function certificateHealth(notAfter: number, now: number): CertificateHealth {
  if (notAfter <= now) return "red";
  const days = daysRemaining(notAfter, now);
  if (days < CRITICAL_DAYS) return "red";
  if (days < WARN_DAYS) return "yellow";
  return "green";
}

/** The locale key (namespace `certificates`) of the text shown for a health level. */
export function healthMessageKey(notAfter: number, now: number): string {
  if (notAfter <= now) return "certificates.health.expired";
  return `certificates.health.${certificateHealth(notAfter, now)}`;
}
