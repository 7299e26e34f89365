/**
 * The system uptime page's hourly connectivity lines (stations and sensors, in %), drawn
 * with uPlot over `/api/measurements/system-performance?timeframe=` (fetched, not inlined).
 */
import { useEffect, useRef, useState } from "react";
import uPlot from "uplot";

/** Texts, translated on the server. */
export interface UptimeChartsTexts {
  stationTitle: string;
  sensorTitle: string;
  axis: string;
  noData: string;
  loading: string;
  loadFailed: string;
  retry: string;
}

/** Props of the island. */
export interface UptimeChartsProps {
  timeframe: "24h" | "7d" | "30d";
  texts: UptimeChartsTexts;
}

interface Row {
  hour: string;
  stations_total: number;
  station_connectivity: number;
  sensors_total: number;
  sensor_connectivity: number;
}

/** A row's time label: HH:00 for 24 h, MM-DD HH:00 for 7 d, MM-DD for 30 d (browser time). */
export function hourLabel(iso: string, timeframe: UptimeChartsProps["timeframe"]): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, "0");
  const hh = `${p(d.getHours())}:00`;
  const md = `${p(d.getMonth() + 1)}-${p(d.getDate())}`;
  return timeframe === "24h" ? hh : timeframe === "7d" ? `${md} ${hh}` : md;
}

function Line(
  { rows, field, title, texts, colour, timeframe }: {
    rows: Row[];
    field: "station_connectivity" | "sensor_connectivity";
    title: string;
    texts: UptimeChartsTexts;
    colour: string;
    timeframe: UptimeChartsProps["timeframe"];
  },
) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || rows.length === 0) return;
    const labels = rows.map((r) => hourLabel(r.hour, timeframe));
    const width = () => Math.max(240, el.clientWidth);
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
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 220 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [rows, field, title, texts, colour, timeframe]);
  return (
    <section className="card uptime-chart">
      <h2>{title}</h2>
      {rows.length === 0 && <p className="muted">{texts.noData}</p>}
      <div className="chart-box" ref={box} />
    </section>
  );
}

/** The two charts. */
export default function UptimeCharts({ timeframe, texts }: UptimeChartsProps) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let stopped = false;
    setFailed(false);
    fetch(`/api/measurements/system-performance?timeframe=${timeframe}`, {
      credentials: "same-origin",
    })
      .then(async (res) => {
        if (!res.ok) throw new Error(String(res.status));
        const body = await res.json();
        if (!stopped) setRows(body.data ?? []);
      })
      .catch(() => !stopped && setFailed(true));
    return () => {
      stopped = true;
    };
  }, [timeframe, attempt]);
  if (failed) {
    return (
      <div className="alert alert-error" role="alert">
        {texts.loadFailed}{" "}
        <button
          type="button"
          className="btn btn-sm btn-secondary"
          onClick={() => setAttempt((a) => a + 1)}
        >
          {texts.retry}
        </button>
      </div>
    );
  }
  if (!rows) return <p className="muted">{texts.loading}</p>;
  return (
    <div className="uptime-charts">
      <Line
        rows={rows}
        field="station_connectivity"
        title={texts.stationTitle}
        texts={texts}
        colour="#0b6b4f"
        timeframe={timeframe}
      />
      <Line
        rows={rows}
        field="sensor_connectivity"
        title={texts.sensorTitle}
        texts={texts}
        colour="#1d4ed8"
        timeframe={timeframe}
      />
    </div>
  );
}
