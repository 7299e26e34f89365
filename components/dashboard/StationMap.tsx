/**
 * The dashboard's map tab: stations placed by city on an SVG outline of Mexico (no tile
 * server), one marker per city with its station count coloured by status, and beside it
 * the cities with their stations and the stations whose city is not in the table.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { stationLinks } from "../devices/StationList.tsx";
import { cityKey, cityPosition, MAP_H, MAP_W, MEXICO_OUTLINE, project } from "./mexico.ts";
import { Card } from "../kit/mod.ts";

/** A station as the map shows it. */
export interface MapStation {
  id: number;
  name: string;
  /** The city as entered ("" when none). */
  city: string;
  status: string;
}

interface Place {
  city: string;
  at: [number, number];
  stations: MapStation[];
}

/** Groups stations by known city; the rest are unplaced. */
export function placeStations(stations: MapStation[]) {
  const places = new Map<string, Place>();
  const unplaced: MapStation[] = [];
  for (const s of stations) {
    const pos = s.city ? cityPosition(s.city) : null;
    if (!pos) {
      unplaced.push(s);
      continue;
    }
    const key = cityKey(s.city);
    const p = places.get(key) ?? { city: s.city, at: project(pos), stations: [] };
    p.stations.push(s);
    places.set(key, p);
  }
  return { places: [...places.values()], unplaced };
}

const markerClass = (p: Place) => {
  const up = p.stations.filter((s) => s.status === "online").length;
  return up === p.stations.length ? "marker-green" : up > 0 ? "marker-amber" : "marker-red";
};

const OUTLINE = MEXICO_OUTLINE.map((c) => project(c).join(",")).join(" ");

/** The map and its lists. */
export function StationMap({ t, stations }: { t: Translate; stations: MapStation[] }) {
  const { places, unplaced } = placeStations(stations);
  const status = (s: string) => t(`dashboard.status.${s}`);
  return (
    <div className="map-wrap" data-testid="station-map">
      <figure className="card map-card">
        <svg
          viewBox={`0 0 ${MAP_W} ${MAP_H}`}
          role="img"
          aria-label={t("dashboard.map.title")}
          className="map-svg"
        >
          <polygon points={OUTLINE} className="map-land" />
          {places.map((p) => (
            <g key={p.city} className={`map-marker ${markerClass(p)}`}>
              <title>
                {`${p.city}: ${
                  p.stations.map((s) => `${s.name} (${status(s.status)})`).join(", ")
                }`}
              </title>
              <circle cx={p.at[0]} cy={p.at[1]} r={p.stations.length > 1 ? 13 : 9} />
              {p.stations.length > 1 && (
                <text x={p.at[0]} y={p.at[1] + 4} textAnchor="middle">{p.stations.length}</text>
              )}
            </g>
          ))}
        </svg>
        <figcaption className="muted map-legend">
          <span className="legend-dot marker-green" /> {t("dashboard.map.all_online")}{" "}
          <span className="legend-dot marker-amber" /> {t("dashboard.map.some_offline")}{" "}
          <span className="legend-dot marker-red" /> {t("dashboard.map.all_offline")}
        </figcaption>
      </figure>
      <div className="map-side">
        <Card title={t("dashboard.map.cities")}>
          {places.length === 0 && <p className="muted">{t("dashboard.map.no_cities")}</p>}
          <ul className="map-list">
            {places.map((p) => (
              <li key={p.city}>
                <strong>{p.city}</strong>
                <ul>
                  {p.stations.map((s) => (
                    <li key={s.id} data-status={s.status}>
                      <a href={stationLinks(s.id).data}>{s.name}</a>{" "}
                      <span className="muted">({status(s.status)})</span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </Card>
        {unplaced.length > 0 && (
          <Card title={t("dashboard.map.unplaced")} data-testid="map-unplaced">
            <ul className="map-list">
              {unplaced.map((s) => (
                <li key={s.id}>
                  <a href={stationLinks(s.id).data}>{s.name}</a>{" "}
                  <span className="muted">
                    {s.city || t("dashboard.station_list.no_city")}
                  </span>
                </li>
              ))}
            </ul>
          </Card>
        )}
      </div>
    </div>
  );
}
