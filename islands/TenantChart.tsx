/**
 * The tenant's charts (spec 001 sections 2 and 9): an area, bars or a line of one series, or
 * bars of one series with a line of a second on its own axis (billing: cost and energy), drawn
 * with uPlot; axis numbers abbreviate thousands with K. The points are small (24 at most per
 * series) and come as props. Until the chart is drawn, and without JavaScript, the same numbers
 * show as a table.
 */
import { useEffect, useRef, useState } from "react";
import uPlot from "uplot";
import { abbreviateK } from "../core/chart_numbers.ts";

/** How the first series is drawn. */
export type TenantChartKind = "area" | "bars" | "line";

/** A series: its name (with unit) and one value per label. */
export interface TenantSeries {
  name: string;
  values: number[];
}

/** Props of the island. */
export interface TenantChartProps {
  kind: TenantChartKind;
  labels: string[];
  /** One series, or two: the second is a line on a right-hand axis (or on the same axis). */
  series: TenantSeries[];
  /** Both series in the same unit: one axis for both. */
  shareAxis?: boolean;
  /** Caption of the table of numbers, and the label of its first column. */
  caption: string;
  labelHeading: string;
  noData: string;
  /** A name for tests (`data-chart`). */
  name: string;
}

/** The chart. */
export default function TenantChart(p: TenantChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  const empty = p.labels.length === 0 || p.series.every((s) => s.values.every((v) => v === 0));

  useEffect(() => {
    const el = box.current;
    if (!el) return;
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
          values: (_u, splits) => splits.map((i) => p.labels[Math.round(i)] ?? ""),
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
        {},
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
          setDrawn(true);
        }],
      },
    };
    const plot = new uPlot(opts, [xs, ...p.series.map((s) => s.values)], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: height() }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      delete el.dataset.ready;
    };
  }, [p]);

  return (
    <div className="tenant-chart" data-chart={p.name}>
      {empty && <p className="muted chart-note">{p.noData}</p>}
      <div className="chart-box" ref={box} />
      {p.labels.length > 0 && (
        <details className="series-details" open={!drawn}>
          <summary>{p.caption}</summary>
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">{p.labelHeading}</th>
                  {p.series.map((s) => <th key={s.name} scope="col">{s.name}</th>)}
                </tr>
              </thead>
              <tbody>
                {p.labels.map((l, i) => (
                  <tr key={`${l}-${i}`}>
                    <td>{l}</td>
                    {p.series.map((s) => (
                      <td key={s.name} className="num">{(s.values[i] ?? 0).toFixed(2)}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </div>
  );
}
