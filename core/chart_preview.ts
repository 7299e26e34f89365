/**
 * The first paint's chart (issue 32): the shape of a series as SVG path data, drawn by the
 * server so a phone shows the chart with the page's HTML, before any script or request; uPlot
 * draws over it once loaded. The scale is uPlot's as the islands set it (from 0, or from 1.1 ×
 * the lowest value when one is negative, to 1.1 × the highest), so the sketch and the chart that
 * replaces it have the same shape. Pure geometry: numbers in, path text out.
 */

/** How a series is drawn: a filled area, bars, or a line. */
export type PreviewKind = "area" | "bars" | "line";

/** The sketch's own coordinates (the SVG stretches them to its box). */
export const PREVIEW_WIDTH = 600;
export const PREVIEW_HEIGHT = 200;

/** What the component draws: the series' path, and the zero line's height. */
export interface PreviewShape {
  kind: PreviewKind;
  /** SVG path data of the series (bars: one rectangle each; area: closed down to zero). */
  path: string;
  /** Where zero is, from the top. */
  zeroY: number;
}

const r = (v: number) => Math.round(v * 10) / 10;

/** The shape of `values` drawn as `kind`, or null when there is nothing to draw. */
export function previewShape(values: readonly number[], kind: PreviewKind): PreviewShape | null {
  const finite = values.map((v) => (Number.isFinite(v) ? v : 0));
  if (finite.length === 0 || finite.every((v) => v === 0)) return null;
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const lo = min < 0 ? min * 1.1 : 0;
  const hi = max > 0 ? max * 1.1 : 1;
  const y = (v: number) => r(PREVIEW_HEIGHT - ((v - lo) / (hi - lo)) * PREVIEW_HEIGHT);
  const zeroY = y(0);
  const n = finite.length;
  if (kind === "bars") {
    // One slot per value, as uPlot's bars with the x range [-0.5, n - 0.5] and 70 % wide bars.
    const slot = PREVIEW_WIDTH / n;
    const w = r(slot * 0.7);
    const path = finite.map((v, i) => {
      const top = Math.min(y(v), zeroY);
      const h = r(Math.abs(y(v) - zeroY));
      return `M${r(slot * i + slot * 0.15)} ${top}h${w}v${h}h${-w}z`;
    }).join("");
    return { kind, path, zeroY };
  }
  const x = (i: number) => (n === 1 ? PREVIEW_WIDTH / 2 : r((i / (n - 1)) * PREVIEW_WIDTH));
  const line = finite.map((v, i) => `${i === 0 ? "M" : "L"}${x(i)} ${y(v)}`).join("");
  const path = kind === "area" ? `${line}L${x(n - 1)} ${zeroY}L${x(0)} ${zeroY}z` : line;
  return { kind, path, zeroY };
}
