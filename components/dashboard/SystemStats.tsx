/**
 * The system uptime page (`/admin/stats`, spec 000 sections 2, 3, 8, 9): station and sensor
 * cards (online/total and uptime over the timeframe), online/offline donuts drawn on the
 * server, the hourly connectivity lines (island), the last 8 hours table and the 24 h /
 * 7 d / 30 d selector as links. Uptime above 90 % is green, above 70 % amber, else red.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { Island } from "../render.tsx";
import UptimeCharts from "../../islands/UptimeCharts.tsx";
import { ResponsiveList } from "../kit/mod.ts";
import { DISPLAY_TIME_ZONE } from "../users/format.ts";

/** Timeframes of the page. */
export const STATS_TIMEFRAMES = ["24h", "7d", "30d"] as const;
/** A timeframe. */
export type StatsTimeframe = typeof STATS_TIMEFRAMES[number];

/** One row of the performance series. */
export interface PerformanceRow {
  hour: string;
  stations_online: number;
  stations_total: number;
  station_connectivity: number;
  sensors_online: number;
  sensors_total: number;
  sensor_connectivity: number;
}

/** The page's figures. */
export interface SystemFigures {
  stationCount: number;
  stationsOnline: number;
  sensorCount: number;
  sensorsOnline: number;
  /** Sensors' observed uptime over 24 h, or null when nothing was observed. */
  uptime: number | null;
}

/** Props of {@link SystemStats}. */
interface SystemStatsProps {
  t: Translate;
  lang: string;
  timeframe: StatsTimeframe;
  /** Null when loading failed. */
  figures: SystemFigures | null;
  /** Rows of the chosen timeframe. */
  rows: PerformanceRow[];
  /** The last 8 hourly rows, newest first. */
  last8: PerformanceRow[];
}

/** The colour class of an uptime percentage (spec: > 90 green, > 70 amber, else red). */
export const uptimeClass = (pct: number) =>
  pct > 90 ? "uptime-green" : pct > 70 ? "uptime-amber" : "uptime-red";

/** The mean of a list, or null when empty. */
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** An online/offline donut. */
function Donut({ t, title, online, total, id }: {
  t: Translate;
  title: string;
  online: number;
  total: number;
  id: string;
}) {
  const r = 40;
  const len = 2 * Math.PI * r;
  const share = total > 0 ? online / total : 0;
  const U = (k: string) => t(`uptime.charts.${k}`);
  return (
    <section className="card donut-card" data-testid={`donut-${id}`}>
      <h2>{title}</h2>
      <div className="donut-row">
        <svg
          viewBox="0 0 100 100"
          className="donut"
          role="img"
          aria-label={`${title}: ${online}/${total}`}
        >
          <circle cx="50" cy="50" r={r} className={total > 0 ? "donut-off" : "donut-none"} />
          {online > 0 && (
            <circle
              cx="50"
              cy="50"
              r={r}
              className="donut-on"
              strokeDasharray={`${(share * len).toFixed(2)} ${len.toFixed(2)}`}
              transform="rotate(-90 50 50)"
            />
          )}
          <text x="50" y="55" textAnchor="middle" className="donut-text">{online}/{total}</text>
        </svg>
        <ul className="donut-legend">
          <li>
            <span className="legend-dot marker-green" /> {U("online")}: {online}
          </li>
          <li>
            <span className="legend-dot marker-red" /> {U("offline")}: {total - online}
          </li>
        </ul>
      </div>
    </section>
  );
}

/** A station or sensor card. */
function Card({ t, label, online, total, uptime, id }: {
  t: Translate;
  label: string;
  online: number;
  total: number;
  uptime: number | null;
  id: string;
}) {
  return (
    <div className="stat" data-testid={`card-${id}`}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">
        {t("uptime.cards.online_of_total", { online, total })}
      </div>
      {uptime !== null && (
        <div className={`stat-sub uptime-pct ${uptimeClass(uptime)}`}>
          {t("uptime.cards.uptime_percent", { percent: uptime.toFixed(1) })}
        </div>
      )}
    </div>
  );
}

/** The page. */
export function SystemStats({ t, lang, timeframe, figures, rows, last8 }: SystemStatsProps) {
  const U = (k: string, p?: Record<string, string | number>) => t(`uptime.${k}`, p);
  const stUp = mean(rows.filter((r) => r.stations_total > 0).map((r) => r.station_connectivity));
  const seUp = mean(rows.filter((r) => r.sensors_total > 0).map((r) => r.sensor_connectivity));
  const time = new Intl.DateTimeFormat(lang, {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: DISPLAY_TIME_ZONE,
  });
  // The stations' and the sensors' figures, in the order of the cards and donuts.
  const kinds = figures === null ? [] : [
    {
      id: "stations",
      one: "station",
      online: figures.stationsOnline,
      total: figures.stationCount,
      uptime: stUp,
    },
    {
      id: "sensors",
      one: "sensor",
      online: figures.sensorsOnline,
      total: figures.sensorCount,
      uptime: seUp,
    },
  ];
  const pct = (n: number, total: number) =>
    total === 0
      ? <span className="muted">—</span>
      : (
        <span className={`uptime-pct ${uptimeClass(n)}`}>
          {U("performance_table.percent", { percent: n.toFixed(1) })}
        </span>
      );
  return (
    <div className="system-stats">
      <div className="page-head">
        <div>
          <h1>{U("system_uptime.title")}</h1>
          <p className="muted page-sub">{U("system_uptime.subtitle")}</p>
        </div>
        <nav className="segmented" aria-label={U("timeframes.label")}>
          {STATS_TIMEFRAMES.map((k) => (
            <a
              key={k}
              className="seg"
              href={`/admin/stats?timeframe=${k}`}
              aria-current={k === timeframe ? "page" : undefined}
            >
              {U(`timeframes.last_${k}`)}
            </a>
          ))}
        </nav>
      </div>
      {figures === null
        ? (
          <div className="alert alert-error" role="alert" data-testid="stats-error">
            {U("errors.load_failed")}{" "}
            <a className="btn btn-sm btn-secondary" href={`/admin/stats?timeframe=${timeframe}`}>
              {U("errors.retry")}
            </a>
          </div>
        )
        : (
          <>
            <div className="stats">
              {kinds.map((k) => <Card key={k.id} t={t} {...k} label={U(`cards.${k.id}`)} />)}
              {figures.uptime !== null && (
                <div className="stat" data-testid="card-system">
                  <div className="stat-label">{U("cards.system_uptime")}</div>
                  <div className={`stat-value uptime-pct ${uptimeClass(figures.uptime)}`}>
                    {figures.uptime.toFixed(1)}%
                  </div>
                  <div className="stat-sub">{U("timeframes.last_24h")}</div>
                </div>
              )}
            </div>
            <div className="donuts">
              {kinds.map((k) => (
                <Donut key={k.id} t={t} {...k} title={U(`charts.${k.one}_status`)} />
              ))}
            </div>
            <Island
              of={UptimeCharts}
              props={{
                timeframe,
                texts: {
                  stationTitle: U("charts.hourly_station_uptime"),
                  sensorTitle: U("charts.hourly_sensor_uptime"),
                  axis: U("charts.connectivity_axis"),
                  noData: U("charts.no_data"),
                  loading: U("system_uptime.loading"),
                  loadFailed: U("errors.load_failed"),
                  retry: U("errors.retry"),
                },
              }}
            />
            <section className="card">
              <h2>{U("performance_table.title")}</h2>
              {last8.length === 0
                ? <p className="muted">{U("performance_table.empty")}</p>
                : (
                  <ResponsiveList
                    label={U("performance_table.title")}
                    testId="performance-table"
                    framed={false}
                    rows={last8}
                    rowKey={(r) => r.hour}
                    columns={[
                      {
                        label: U("performance_table.columns.hour"),
                        primary: true,
                        className: "nowrap",
                        cell: (r) =>
                          time.format(new Date(r.hour)),
                      },
                      {
                        label: U("performance_table.columns.stations_online"),
                        cell: (r) =>
                          U("performance_table.online_of_total", {
                            online: r.stations_online,
                            total: r.stations_total,
                          }),
                      },
                      {
                        label: U("performance_table.columns.station_connectivity"),
                        cell: (r) =>
                          pct(r.station_connectivity, r.stations_total),
                      },
                      {
                        label: U("performance_table.columns.sensors_online"),
                        cell: (r) =>
                          U("performance_table.online_of_total", {
                            online: r.sensors_online,
                            total: r.sensors_total,
                          }),
                      },
                      {
                        label: U("performance_table.columns.sensor_connectivity"),
                        cell: (r) => pct(r.sensor_connectivity, r.sensors_total),
                      },
                    ]}
                  />
                )}
            </section>
          </>
        )}
    </div>
  );
}
