/**
 * The admin dashboard's live figures: the four device stat cards and the energy production
 * card. Server-rendered with the page's values; the browser side, the plain script
 * `DashboardLive.client.ts`, refreshes them: the first time 100 ms after load (spec 000
 * section 4), then the overview every 30 s and the device counts every 60 s (section 9). A
 * failed refresh shows 'Error loading dashboard' with Retry (section 8).
 */
import { capacityText, type DashboardLiveProps, energyCells } from "./dashboard_cells.ts";

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
