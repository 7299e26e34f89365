/**
 * The chart drawn by the server (issue 32): the series' shape as inline SVG in the page's HTML,
 * so the first paint carries the chart on a slow phone; hidden from assistive technology (the
 * table of numbers and uPlot's chart speak for it). The chart islands draw over it: the tenant's
 * keeps it inside its chart box, hidden by CSS once drawn; the admin's removes it when it draws.
 * Plain markup beside the islands (a sibling they import; the admin dashboard renders it too).
 */
import {
  PREVIEW_HEIGHT,
  PREVIEW_WIDTH,
  type PreviewKind,
  previewShape,
} from "../core/chart_preview.ts";

/** The sketch of `values`, or nothing when there is nothing to draw. */
export function ChartPreview({ values, kind }: { values: readonly number[]; kind: PreviewKind }) {
  const shape = previewShape(values, kind);
  if (!shape) return null;
  return (
    <svg
      className={`chart-preview chart-preview-${kind}`}
      data-chart-preview=""
      viewBox={`0 0 ${PREVIEW_WIDTH} ${PREVIEW_HEIGHT}`}
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
    >
      <line className="zero" x1="0" x2={PREVIEW_WIDTH} y1={shape.zeroY} y2={shape.zeroY} />
      <path d={shape.path} />
    </svg>
  );
}
