/**
 * The system uptime page's hourly connectivity lines (stations and sensors, in %), drawn
 * with uPlot over `/api/measurements/system-performance?timeframe=` (fetched, not inlined).
 */

/** Texts, translated on the server. */
interface UptimeChartsTexts {
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

/** A row of the system-performance answer. */
export interface UptimeRow {
  hour: string;
  stations_total: number;
  station_connectivity: number;
  sensors_total: number;
  sensor_connectivity: number;
}

/**
 * The charts' place with the loading text, rendered on the server; the browser side
 * (`UptimeCharts.client.ts`, a plain script) fetches the rows and draws the two lines.
 */
export default function UptimeCharts({ texts }: UptimeChartsProps) {
  return (
    <div className="uptime-charts-box" aria-live="polite">
      <p className="muted">{texts.loading}</p>
    </div>
  );
}
