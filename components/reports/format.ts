/** Formatting helpers of the report pages: money from integer cents, energy, percentages. */

/** Integer cents with two decimals and the currency, e.g. `1234` → `12.34 MXN`. */
export function money(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}

/** Energy with two decimals and kWh. */
export function kwh(value: number): string {
  return `${value.toFixed(2)} kWh`;
}

/** A price per kWh as stored on the zone (up to four decimals, at least two). */
export function price(value: number, currency: string): string {
  const text = Number.isInteger(value * 100) ? value.toFixed(2) : String(Number(value.toFixed(4)));
  return `${text} ${currency}`;
}

/** The PDF download link of the report pages (works without JavaScript). */
export function pdfHref(
  stationId: number,
  params: { type: "unit" | "customer"; period: string; unit?: string; language: string },
): string {
  const q = new URLSearchParams({ type: params.type, period: params.period });
  if (params.unit) q.set("unit", params.unit);
  q.set("language", params.language);
  return `/admin/report/station/${stationId}/pdf?${q}`;
}
