/** The business tariff every GDMTH test prices with, and the business clock's local times. */

/** A local time of the business (UTC−6), `YYYY-MM-DDTHH:MM`, as epoch milliseconds. */
export const at = (local: string) => Date.parse(`${local}:00-06:00`);

/** GDMTH Golfo Norte (Monterrey): the tariff reference's January 2026 prices. */
export const GOLFO_NORTE_2026 = {
  tariff_type: "industrial" as const,
  industrial_tariff: true,
  base_tariff: 502.03,
  tax_percentage: 16,
  tou_schedule: "cfe_central",
  price_base: 1.0222,
  price_intermedia: 1.5867,
  price_punta: 1.7219,
  distribution_enabled: true,
  distribution_price: 57.74,
  capacity_enabled: true,
  capacity_price: 401.78,
  capacity_floor_percentage: 70,
};
