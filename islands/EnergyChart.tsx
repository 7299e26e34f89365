/**
 * The dashboard's chart tab: Day / Month / Year / Total, previous and next date, yield and
 * earning summaries, CSV export of the shown series, and a uPlot chart (area of power in
 * kW for a day, bars of energy in kWh otherwise). The series is fetched from
 * `/api/measurements` (never inlined); the controls are links, so the page works without
 * JavaScript, where the server's table of the series stands in for the chart.
 */
import { type MouseEvent, useEffect, useRef, useState } from "react";
import uPlot from "uplot";
import {
  chartHref,
  ENERGY_MODES,
  type EnergyMode,
  type EnergyPoint,
  periodText,
  seriesCsv,
  seriesUrl,
  shiftDate,
  yieldText,
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

interface Loaded {
  points: EnergyPoint[];
  totalYield: number;
  totalEarning: number;
}

/** The chart. */
export default function EnergyChart({ mode: mode0, date: date0, texts: x }: EnergyChartProps) {
  const [mode, setMode] = useState<EnergyMode>(mode0);
  const [date, setDate] = useState(date0);
  const [data, setData] = useState<Loaded | null>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const [attempt, setAttempt] = useState(0);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let stopped = false;
    setState("loading");
    fetch(seriesUrl(mode, date), { credentials: "same-origin" })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const body = await res.json();
        if (stopped) return;
        setData({
          points: body.chartData ?? [],
          totalYield: body.totalYield ?? 0,
          totalEarning: body.totalEarning ?? 0,
        });
        setState("ready");
      })
      .catch(() => !stopped && setState("failed"));
    return () => {
      stopped = true;
    };
  }, [mode, date, attempt]);

  useEffect(() => {
    const el = box.current;
    if (!el || !data || data.points.length === 0) return;
    const day = mode === "day";
    const xs = data.points.map((_, i) => i);
    const ys = data.points.map((p) => (day ? p.power ?? 0 : p.energy));
    const labels = data.points.map((p) => p.label);
    const style = getComputedStyle(el);
    const colour = style.getPropertyValue("--primary").trim() || "#0b6b4f";
    const width = () => Math.max(260, el.clientWidth);
    const opts: uPlot.Options = {
      width: width(),
      height: 280,
      legend: { show: false },
      cursor: { y: false },
      scales: {
        x: { time: false, range: day ? undefined : () => [-0.5, xs.length - 0.5] },
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        {
          values: (_u, splits) => splits.map((i) => labels[Math.round(i)] ?? ""),
          space: day ? 60 : 36,
        },
        { label: day ? x.powerAxis : x.energyAxis, size: 60 },
      ],
      series: [
        {},
        day
          ? {
            label: x.powerAxis,
            stroke: colour,
            width: 2,
            fill: `${colour}33`,
            points: { show: false },
          }
          : {
            label: x.energyAxis,
            stroke: colour,
            fill: `${colour}aa`,
            paths: uPlot.paths.bars!({ size: [0.7, 40] }),
            points: { show: false },
          },
      ],
    };
    // `data-ready` says the series is drawn (tests and the phone-load benchmark wait for it).
    opts.hooks = {
      draw: [() => {
        if (el.dataset.ready === "true") return;
        el.dataset.ready = "true";
        performance.mark("energy-chart-drawn");
      }],
    };
    const plot = new uPlot(opts, [xs, ys], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 280 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      delete el.dataset.ready;
    };
  }, [data, mode, x]);

  const go = (e: MouseEvent, m: EnergyMode, d: string) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    setMode(m);
    setDate(d);
    history.replaceState(null, "", chartHref(m, d));
  };

  const exportCsv = () => {
    if (!data) return;
    const blob = new Blob([seriesCsv(mode, data.points)], { type: "text/csv" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `energy-${mode}-${periodText(mode, date) || "total"}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };

  const prev = shiftDate(mode, date, -1);
  const next = shiftDate(mode, date, 1);
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
              onClick={(e) => go(e, m, date)}
            >
              {x.modes[m]}
            </a>
          ))}
        </div>
        {mode !== "total" && (
          <div className="date-nav">
            <a
              className="btn btn-sm btn-secondary"
              href={chartHref(mode, prev)}
              aria-label={x.previous}
              onClick={(e) => go(e, mode, prev)}
            >
              ‹
            </a>
            <span className="date-label">{periodText(mode, date)}</span>
            <a
              className="btn btn-sm btn-secondary"
              href={chartHref(mode, next)}
              aria-label={x.next}
              onClick={(e) => go(e, mode, next)}
            >
              ›
            </a>
          </div>
        )}
        <button
          type="button"
          className="btn btn-sm btn-secondary"
          onClick={exportCsv}
          disabled={!data || state !== "ready"}
        >
          {x.export}
        </button>
      </div>
      <dl className="chart-summary">
        <div>
          <dt>{x.totalYield}</dt>
          <dd data-testid="chart-yield">
            {data && state === "ready" ? yieldText(data.totalYield, x) : "..."}
          </dd>
        </div>
        <div>
          <dt>{x.totalEarning}</dt>
          <dd>
            {data && state === "ready" ? `${data.totalEarning.toFixed(2)} ${x.currency}` : "..."}
          </dd>
        </div>
      </dl>
      {state === "loading" && <p className="muted chart-note">{x.loading}</p>}
      {state === "failed" && (
        <div className="alert alert-error" role="alert">
          {x.errorLoading}{" "}
          <button
            type="button"
            className="btn btn-sm btn-secondary"
            onClick={() => setAttempt((a) => a + 1)}
          >
            {x.retry}
          </button>
        </div>
      )}
      {state === "ready" && data && data.points.length === 0 && (
        <p className="muted chart-note">{x.noData}</p>
      )}
      <div className="chart-box" ref={box} />
    </div>
  );
}
