/** Numbers on chart axes (spec 001 section 9: charts abbreviate thousands with K). Pure. */

/** `1500` → `1.5K`, `12000` → `12K`, `950` → `950`, `0.25` → `0.25`. */
export function abbreviateK(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1000) {
    const k = Math.round((value / 1000) * 10) / 10;
    return `${k}K`;
  }
  return String(Math.round(value * 100) / 100);
}
