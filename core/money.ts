/**
 * Money at the edge (DESIGN: integer cents inside, currency units with at most 2 decimals in
 * JSON). The one conversion the JSON views use; text for readers is `core/format.ts`.
 */

/** Integer cents as currency units with at most 2 decimals: `42172` → `421.72`. */
export function centsToUnits(cents: number): number {
  return Math.round(cents) / 100;
}
