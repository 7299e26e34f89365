/**
 * Money at the edge (DESIGN: integer cents inside, currency units with at most 2 decimals in
 * JSON). The one conversion the JSON views use.
 */

/** Integer cents as currency units with at most 2 decimals: `42172` → `421.72`. */
export function centsToUnits(cents: number): number {
  return Math.round(cents) / 100;
}

/** Cents as text with 2 decimals and the currency: `43369, "MXN"` → `433.69 MXN`. */
export function moneyText(cents: number, currency: string): string {
  return `${(Math.round(cents) / 100).toFixed(2)} ${currency}`;
}
