/**
 * The tenant's charts (spec 001 sections 2 and 9): an area, bars or a line of one series, or
 * bars of one series with a line of a second on its own axis (billing: cost and energy), drawn
 * with uPlot; axis numbers abbreviate thousands with K. The points are small (24 at most per
 * series) and come as props. Until the chart is drawn, and without JavaScript, the same numbers
 * show as a table, and the first series' shape as the server's SVG sketch in the chart's box
 * (`ChartPreview`, hidden by CSS once the box says `data-ready`). The server renders the table
 * and the sketch; the browser side, the plain script `TenantChart.client.ts`, draws the chart
 * with uPlot (no React).
 */
import { ChartPreview } from "./ChartPreview.tsx";

/** How the first series is drawn. */
export type TenantChartKind = "area" | "bars" | "line";

/** A series: its name (with unit) and one value per label. */
interface TenantSeries {
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

/** The chart's box and its table of numbers (open until the chart is drawn). */
export default function TenantChart(p: TenantChartProps) {
  const empty = p.labels.length === 0 || p.series.every((s) => s.values.every((v) => v === 0));

  return (
    <div className="tenant-chart" data-chart={p.name}>
      {empty && <p className="muted chart-note">{p.noData}</p>}
      <div className="chart-box">
        {!empty && <ChartPreview values={p.series[0].values} kind={p.kind} />}
      </div>
      {p.labels.length > 0 && (
        <details className="series-details" open>
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
