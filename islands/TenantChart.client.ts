/**
 * Browser side of TenantChart (plain script): draws the series with uPlot, resizes with its
 * box, marks the box `data-ready="true"` once drawn and folds the table of numbers away.
 */
import uPlot from "uplot";
import { abbreviateK, pointLabel, pointLabels } from "../core/chart_numbers.ts";
import type { TenantChartProps } from "./TenantChart.tsx";

/** Draws the chart of `p` into the island's `.chart-box`. */
export function mount(root: HTMLElement, p: TenantChartProps) {
  const el = root.querySelector<HTMLElement>(".chart-box");
  if (!el) return;
  let folded = false;
  if (p.labels.length === 0) {
    // Nothing to draw: the table (empty) and the note stand.
    el.dataset.ready = "true";
    return;
  }
  const style = getComputedStyle(el);
  const primary = style.getPropertyValue("--primary").trim() || "#0b6b4f";
  const secondColor = style.getPropertyValue("--info").trim() || "#1f5fae";
  const xs = p.labels.map((_, i) => i);
  const bars = p.kind === "bars";
  const width = () => Math.max(240, el.clientWidth);
  const height = () => (el.clientWidth < 480 ? 220 : 280);
  const [first, second] = p.series;
  const other = p.shareAxis ? undefined : second;
  // Below 0 only when a value is (a loss); otherwise from 0.
  const range = (_u: uPlot, min: number, max: number): [number, number] => [
    min < 0 ? min * 1.1 : 0,
    max > 0 ? max * 1.1 : 1,
  ];
  const opts: uPlot.Options = {
    width: width(),
    height: height(),
    legend: { show: p.series.length > 1 },
    cursor: { y: false },
    scales: {
      x: { time: false, range: bars ? () => [-0.5, xs.length - 0.5] : undefined },
      y: { range },
      ...(other ? { y2: { range } } : {}),
    },
    axes: [
      {
        values: (_u, splits) => pointLabels(p.labels, splits),
        // Whole steps only, wide enough for the longest label.
        incrs: [1, 2, 3, 4, 6, 8, 12],
        space: Math.max(28, Math.max(...p.labels.map((l) => l.length)) * 7 + 10),
      },
      { values: (_u, splits) => splits.map(abbreviateK), size: 48 },
      ...(other
        ? [{
          scale: "y2",
          side: 1 as const,
          grid: { show: false },
          values: (_u: uPlot, splits: number[]) => splits.map(abbreviateK),
          size: 48,
        }]
        : []),
    ],
    series: [
      // The legend names the x value by the table's heading and label, not uPlot's "Value: --".
      {
        label: p.labelHeading,
        value: (_u: uPlot, v: number | null) => pointLabel(p.labels, v),
      },
      {
        label: first.name,
        stroke: primary,
        width: 2,
        fill: p.kind === "line" ? undefined : `${primary}${bars ? "aa" : "33"}`,
        paths: bars ? uPlot.paths.bars!({ size: [0.7, 40] }) : undefined,
        points: { show: p.kind === "line" },
      },
      ...(second
        ? [{
          label: second.name,
          scale: other ? "y2" : "y",
          stroke: secondColor,
          width: 2,
          points: { show: true },
        }]
        : []),
    ],
    hooks: {
      draw: [() => {
        el.dataset.ready = "true";
        if (folded) return;
        folded = true;
        const details = root.querySelector("details");
        if (details) details.open = false;
      }],
    },
  };
  const plot = new uPlot(opts, [xs, ...p.series.map((s) => s.values)], el);
  const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: height() }));
  resize.observe(el);
}
