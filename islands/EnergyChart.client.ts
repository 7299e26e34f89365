/**
 * Browser side of EnergyChart (plain script): loads the series of the chosen mode and date,
 * fills the summary, draws it with uPlot (marking the box `data-ready="true"` and the
 * `energy-chart-drawn` performance mark), and answers the mode and date links in place
 * (the address follows with `history.replaceState`); a failed load shows Retry; Export
 * downloads the shown series as CSV.
 */
import { pointLabels } from "../core/chart_numbers.ts";
import uPlot from "uplot";
import {
  chartHref,
  earningText,
  type EnergyMode,
  type EnergyPoint,
  periodText,
  seriesCsv,
  seriesUrl,
  shiftDate,
  yieldText,
} from "../core/energy_modes.ts";
import type { EnergyChartProps } from "./EnergyChart.tsx";
import { retryAlert } from "./retry_alert.ts";

interface Loaded {
  points: EnergyPoint[];
  totalYield: number;
  totalEarning: number;
}

/** Runs the chart in the server-rendered `root`. */
export function mount(root: HTMLElement, { mode: mode0, date: date0, texts: x }: EnergyChartProps) {
  const $ = <T extends HTMLElement>(sel: string) => root.querySelector<T>(sel)!;
  const box = $(".chart-box");
  const note = $(".chart-note");
  const exportBtn = $<HTMLButtonElement>("[data-export]");
  const yieldDd = $("[data-testid=chart-yield]");
  const earningDd = $("[data-earning]");
  const nav = $(".date-nav");
  let mode = mode0;
  let date = date0;
  let data: Loaded | null = null;
  let loads = 0;
  let alert: HTMLElement | null = null;
  let plot: { destroy(): void } | null = null;

  const showNote = (text: string | null) => {
    note.hidden = text === null;
    if (text !== null) note.textContent = text;
  };
  const clearPlot = () => {
    plot?.destroy();
    plot = null;
    delete box.dataset.ready;
  };

  const draw = (d: Loaded) => {
    clearPlot();
    // The server's sketch of the first series stood in until now (components/charts).
    root.parentElement?.querySelector("[data-chart-preview]")?.remove();
    if (d.points.length === 0) return;
    const day = mode === "day";
    const xs = d.points.map((_, i) => i);
    const ys = d.points.map((p) => (day ? p.power ?? 0 : p.energy));
    const labels = d.points.map((p) => p.label);
    const colour = getComputedStyle(box).getPropertyValue("--primary").trim() || "#0b6b4f";
    const width = () => Math.max(260, box.clientWidth);
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
          // Whole steps only: a split between two points would repeat a label (2025 2025).
          values: (_u, splits) => pointLabels(labels, splits),
          incrs: [1, 2, 3, 4, 6, 12, 24, 48, 96, 144, 288],
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
        // Month: bars plus a line over them (spec 000 section 2).
        ...(mode === "month"
          ? [{ label: x.energyAxis, stroke: "#d97706", width: 2, points: { show: true, size: 5 } }]
          : []),
      ],
      hooks: {
        draw: [() => {
          if (box.dataset.ready === "true") return;
          box.dataset.ready = "true";
          performance.mark("energy-chart-drawn");
        }],
      },
    };
    // What is drawn, for the page's readers and tests: an area, bars, or bars and a line.
    box.dataset.series = day ? "area" : mode === "month" ? "bars line" : "bars";
    const u = new uPlot(opts, mode === "month" ? [xs, ys, ys] : [xs, ys], box);
    const resize = new ResizeObserver(() => u.setSize({ width: width(), height: 280 }));
    resize.observe(box);
    plot = {
      destroy() {
        resize.disconnect();
        u.destroy();
      },
    };
  };

  const setFailed = (failed: boolean) => {
    alert?.remove();
    alert = null;
    if (!failed) return;
    alert = retryAlert("alert alert-error", x.errorLoading, x.retry, () => void load());
    box.before(alert);
  };

  async function load() {
    const mine = ++loads;
    data = null;
    exportBtn.disabled = true;
    yieldDd.textContent = earningDd.textContent = "...";
    showNote(x.loading);
    setFailed(false);
    let loaded: Loaded;
    try {
      const res = await fetch(seriesUrl(mode, date), { credentials: "same-origin" });
      if (!res.ok) throw new Error(String(res.status));
      const body = await res.json();
      loaded = {
        points: body.chartData ?? [],
        totalYield: body.totalYield ?? 0,
        totalEarning: body.totalEarning ?? 0,
      };
    } catch {
      if (mine !== loads) return;
      showNote(null);
      clearPlot();
      setFailed(true);
      return;
    }
    if (mine !== loads) return;
    data = loaded;
    exportBtn.disabled = false;
    yieldDd.textContent = yieldText(loaded.totalYield, x);
    earningDd.textContent = earningText(loaded.totalEarning);
    showNote(loaded.points.length === 0 ? x.noData : null);
    draw(loaded);
  }

  const segs = root.querySelectorAll<HTMLAnchorElement>("a[data-mode]");
  const steps = root.querySelectorAll<HTMLAnchorElement>("a[data-step]");
  const go = (m: EnergyMode, d: string) => {
    mode = m;
    date = d;
    for (const a of segs) {
      a.href = chartHref(a.dataset.mode as EnergyMode, d);
      if (a.dataset.mode === m) a.setAttribute("aria-current", "page");
      else a.removeAttribute("aria-current");
    }
    nav.hidden = m === "total";
    for (const a of steps) a.href = chartHref(m, shiftDate(m, d, Number(a.dataset.step) as -1 | 1));
    $(".date-label").textContent = periodText(m, d);
    history.replaceState(null, "", chartHref(m, d));
    void load();
  };
  const onLink = (target: () => [EnergyMode, string]) => (e: MouseEvent) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    go(...target());
  };
  for (const a of segs) {
    a.addEventListener("click", onLink(() => [a.dataset.mode as EnergyMode, date]));
  }
  for (const a of steps) {
    a.addEventListener(
      "click",
      onLink(() => [mode, shiftDate(mode, date, Number(a.dataset.step) as -1 | 1)]),
    );
  }

  exportBtn.addEventListener("click", () => {
    if (!data) return;
    const blob = new Blob([seriesCsv(mode, data.points)], { type: "text/csv" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `energy-${mode}-${periodText(mode, date) || "total"}.csv`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });

  void load();
}
