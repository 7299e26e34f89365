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

/**
 * The x-axis texts of a chart whose points sit at 0, 1, 2…: a split on a point gets its label,
 * one between two points none (rounding would say a label twice: `2025 2025 2026`).
 */
export function pointLabels(labels: readonly string[], splits: readonly number[]): string[] {
  return splits.map((i) => (Number.isInteger(i) ? labels[i] ?? "" : ""));
}

/** The legend's text of the point under the cursor: its label, or a dash when none. */
export function pointLabel(labels: readonly string[], index: number | null): string {
  return index == null ? "—" : labels[Math.round(index)] ?? "—";
}
