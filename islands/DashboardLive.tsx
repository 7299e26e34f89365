/**
 * The admin dashboard's live figures: the four device stat cards and the energy production
 * card. Server-rendered with the page's values; the first refresh comes 100 ms after load
 * (spec 000 section 4), then the overview every 30 s and the device counts every 60 s
 * (section 9). A failed refresh shows 'Error loading dashboard' with Retry (section 8).
 */
import { useState } from "react";
import { usePoll } from "./use_poll.ts";

/** Overview polling interval. */
export const OVERVIEW_POLL_MS = 30_000;
/** Device counts polling interval. */
export const DEVICES_POLL_MS = 60_000;

/** The overview numbers (kW and kWh). */
export interface LiveOverview {
  currentPower: number;
  todayYield: number;
  monthlyYield: number;
  totalYield: number;
  totalCapacity: number;
}

/** The device counts. */
export interface LiveStats {
  stationCount: number;
  sensorCount: number;
  onlineCount: number;
  unitCount: number;
}

/** Texts, translated on the server. */
export interface DashboardLiveTexts {
  stations: string;
  sensors: string;
  online: string;
  units: string;
  energyTitle: string;
  currentPower: string;
  today: string;
  thisMonth: string;
  total: string;
  totalCapacity: string;
  loading: string;
  kw: string;
  kwh: string;
  mwh: string;
  errorLoading: string;
  retry: string;
}

/** Props of the island. */
export interface DashboardLiveProps {
  /** Null when the server could not compute it: the island shows '...' and loads it. */
  overview: LiveOverview | null;
  stats: LiveStats;
  texts: DashboardLiveTexts;
}

/** A number with a fixed count of decimals (spec: 2 by default). */
export const fixed = (n: number, digits = 2) => n.toFixed(digits);

/** The energy card's cells for an overview (null: loading). */
export function energyCells(o: LiveOverview | null, x: DashboardLiveTexts) {
  const v = (f: (o: LiveOverview) => string) => (o ? f(o) : x.loading);
  return [
    { key: "power", label: x.currentPower, value: v((o) => fixed(o.currentPower)), unit: x.kw },
    { key: "today", label: x.today, value: v((o) => fixed(o.todayYield)), unit: x.kwh },
    {
      key: "month",
      label: x.thisMonth,
      value: v((o) => fixed(o.monthlyYield / 1000, 3)),
      unit: x.mwh,
    },
    { key: "total", label: x.total, value: v((o) => fixed(o.totalYield / 1000, 3)), unit: x.mwh },
  ];
}

/** The cards. */
export default function DashboardLive({ overview: o0, stats: s0, texts: x }: DashboardLiveProps) {
  const [overview, setOverview] = useState<LiveOverview | null>(o0);
  const [stats, setStats] = useState<LiveStats>(s0);

  const live = usePoll(async (signal) => {
    const res = await fetch("/api/measurements/overview", { credentials: "same-origin", signal });
    if (!res.ok) throw new Error(String(res.status));
    setOverview(await res.json());
  }, { intervalMs: OVERVIEW_POLL_MS, firstDelayMs: 100 });
  // A failed count refresh keeps the last counts.
  usePoll(async (signal) => {
    const res = await fetch("/api/devices/stats", { credentials: "same-origin", signal });
    if (res.ok) setStats(await res.json());
  }, { intervalMs: DEVICES_POLL_MS });
  const failed = live.error !== null;

  const cards: [string, string, number][] = [
    ["stations", x.stations, stats.stationCount],
    ["sensors", x.sensors, stats.sensorCount],
    ["online", x.online, stats.onlineCount],
    ["units", x.units, stats.unitCount],
  ];
  return (
    <div className="dash-live">
      <div className="stats">
        {cards.map(([k, label, value]) => (
          <div className="stat" key={k} data-testid={`stat-${k}`}>
            <div className="stat-label">{label}</div>
            <div className="stat-value">{value}</div>
          </div>
        ))}
      </div>
      <section className="card energy-card" data-testid="energy-card">
        <div className="energy-head">
          <h2>{x.energyTitle}</h2>
          {overview && (
            <span className="muted energy-capacity">
              {x.totalCapacity}: {fixed(overview.totalCapacity)} {x.kw}
            </span>
          )}
        </div>
        {failed && (
          <div className="alert alert-error energy-error" role="alert">
            {x.errorLoading}{" "}
            <button type="button" className="btn btn-sm btn-secondary" onClick={live.refresh}>
              {x.retry}
            </button>
          </div>
        )}
        <dl className="energy-grid">
          {energyCells(overview, x).map((c) => (
            <div key={c.key} className="energy-cell" data-testid={`energy-${c.key}`}>
              <dt>{c.label}</dt>
              <dd>
                <span className="energy-value">{c.value}</span>{" "}
                <span className="muted">{c.unit}</span>
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
