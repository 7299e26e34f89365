/**
 * Browser side of UptimeCharts (plain script): fetches the hourly rows of the page's
 * timeframe and draws the stations' and the sensors' connectivity (in %) with uPlot; on a
 * failed fetch it says so with a Retry button.
 */
import uPlot from "uplot";
import type { UptimeChartsProps, UptimeRow } from "./UptimeCharts.tsx";
import { hourLabel } from "./uptime_labels.ts";

type Field = "station_connectivity" | "sensor_connectivity";

/** Fetches the rows and draws the charts into `root`. */
export function mount(root: HTMLElement, { timeframe, texts }: UptimeChartsProps) {
  const box = root.querySelector<HTMLElement>(".uptime-charts-box");
  if (!box) return;

  const el = <K extends keyof HTMLElementTagNameMap>(tag: K, className = "", text = "") => {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text) e.textContent = text;
    return e;
  };

  function line(rows: UptimeRow[], field: Field, title: string, colour: string) {
    const section = el("section", "card uptime-chart");
    section.append(el("h2", "", title));
    if (rows.length === 0) section.append(el("p", "muted", texts.noData));
    const chart = el("div", "chart-box");
    section.append(chart);
    return {
      section,
      draw() {
        if (rows.length === 0) return;
        const labels = rows.map((r) => hourLabel(r.hour, timeframe));
        const width = () => Math.max(240, chart.clientWidth);
        const plot = new uPlot(
          {
            width: width(),
            height: 220,
            legend: { show: false },
            cursor: { y: false },
            scales: {
              x: { time: false, range: () => [-0.5, rows.length - 0.5] },
              y: { range: [0, 100] },
            },
            axes: [
              { values: (_u, s) => s.map((i) => labels[Math.round(i)] ?? ""), space: 50 },
              { label: texts.axis, size: 50 },
            ],
            series: [{}, {
              label: title,
              stroke: colour,
              width: 2,
              fill: `${colour}22`,
              points: { show: true, size: 5 },
            }],
          },
          [
            rows.map((_, i) => i),
            // hours before any device existed are gaps, not 0 %
            rows.map((r) =>
              (field === "station_connectivity" ? r.stations_total : r.sensors_total) > 0
                ? r[field]
                : null
            ),
          ],
          chart,
        );
        new ResizeObserver(() => plot.setSize({ width: width(), height: 220 })).observe(chart);
      },
    };
  }

  async function load() {
    try {
      const res = await fetch(`/api/measurements/system-performance?timeframe=${timeframe}`, {
        credentials: "same-origin",
      });
      if (!res.ok) throw new Error(String(res.status));
      const rows: UptimeRow[] = (await res.json()).data ?? [];
      const charts = el("div", "uptime-charts");
      const lines = [
        line(rows, "station_connectivity", texts.stationTitle, "#0b6b4f"),
        line(rows, "sensor_connectivity", texts.sensorTitle, "#1d4ed8"),
      ];
      charts.append(...lines.map((l) => l.section));
      box!.replaceChildren(charts);
      for (const l of lines) l.draw();
    } catch {
      const alert = el("div", "alert alert-error", `${texts.loadFailed} `);
      alert.setAttribute("role", "alert");
      const retry = el("button", "btn btn-sm btn-secondary", texts.retry);
      retry.type = "button";
      retry.onclick = () => {
        box!.replaceChildren(el("p", "muted", texts.loading));
        load();
      };
      alert.append(retry);
      box!.replaceChildren(alert);
    }
  }
  load();
}
