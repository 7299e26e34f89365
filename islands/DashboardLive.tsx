/**
 * The admin dashboard's live figures: the four device stat cards and the energy production
 * card. Server-rendered with the page's values; the browser side, the plain script
 * `DashboardLive.client.ts`, refreshes them: the first time 100 ms after load (spec 000
 * section 4), then the overview every 30 s and the device counts every 60 s (section 9). A
 * failed refresh shows 'Error loading dashboard' with Retry (section 8).
 */
import { capacityText, energyCells } from "./dashboard_cells.ts";

export { energyCells, fixed } from "./dashboard_cells.ts";

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

/** The cards, with the values the page was rendered with. */
export default function DashboardLive({ overview, stats, texts: x }: DashboardLiveProps) {
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
          <span className="muted energy-capacity" hidden={!overview}>
            {capacityText(overview, x)}
          </span>
        </div>
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
