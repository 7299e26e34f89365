/** The report pages' PDF link (money, energy and prices are written by `core/format.ts`). */

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
