/**
 * The dashboard's chart tab: Day / Month / Year / Total, previous and next date, yield and
 * earning summaries, CSV export of the shown series, and a uPlot chart (area of power in
 * kW for a day, bars of energy in kWh otherwise). The series is fetched from
 * `/api/measurements` (never inlined); the controls are links, so the page works without
 * JavaScript, where the server's sketch and table of the series stand in for the chart (the
 * sketch, `islands/ChartPreview.tsx`, is also the first paint's chart; the client
 * removes it when it draws). The server
 * renders the controls; the browser side is the plain script `EnergyChart.client.ts`.
 */
import {
  chartHref,
  ENERGY_MODES,
  type EnergyMode,
  periodText,
  shiftDate,
} from "../core/energy_modes.ts";

/** Texts, translated on the server. */
export interface EnergyChartTexts {
  modes: Record<EnergyMode, string>;
  previous: string;
  next: string;
  totalYield: string;
  totalEarning: string;
  currency: string;
  export: string;
  powerAxis: string;
  energyAxis: string;
  noData: string;
  loading: string;
  errorLoading: string;
  retry: string;
  kwh: string;
  mwh: string;
}

/** Props of the island. */
export interface EnergyChartProps {
  mode: EnergyMode;
  /** YYYY-MM-DD. */
  date: string;
  texts: EnergyChartTexts;
}

/** The controls, the summary (filled once loaded) and the chart's box. */
export default function EnergyChart({ mode, date, texts: x }: EnergyChartProps) {
  return (
    <div className="energy-chart" data-testid="energy-chart">
      <div className="chart-controls">
        <div className="segmented" role="group">
          {ENERGY_MODES.map((m) => (
            <a
              key={m}
              className="seg"
              href={chartHref(m, date)}
              aria-current={m === mode ? "page" : undefined}
              data-mode={m}
            >
              {x.modes[m]}
            </a>
          ))}
        </div>
        <div className="date-nav" hidden={mode === "total"}>
          <a
            className="btn btn-sm btn-secondary"
            href={chartHref(mode, shiftDate(mode, date, -1))}
            aria-label={x.previous}
            data-step="-1"
          >
            ‹
          </a>
          <span className="date-label">{periodText(mode, date)}</span>
          <a
            className="btn btn-sm btn-secondary"
            href={chartHref(mode, shiftDate(mode, date, 1))}
            aria-label={x.next}
            data-step="1"
          >
            ›
          </a>
        </div>
        <button type="button" className="btn btn-sm btn-secondary" disabled data-export>
          {x.export}
        </button>
      </div>
      <dl className="chart-summary">
        <div>
          <dt>{x.totalYield}</dt>
          <dd data-testid="chart-yield">...</dd>
        </div>
        <div>
          <dt>{x.totalEarning}</dt>
          <dd data-earning>...</dd>
        </div>
      </dl>
      <p className="muted chart-note">{x.loading}</p>
      <div className="chart-box" />
    </div>
  );
}
