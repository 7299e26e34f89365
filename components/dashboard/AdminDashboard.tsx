/**
 * The admin dashboard (`/admin`, spec 000 sections 2, 3, 4, 8, 9): title, Add station, the
 * live stat and energy cards (island), and the List / Map / Chart tabs as links. The list
 * tab reuses the station list with its own search; the chart tab shows the chart island
 * and, for readers without JavaScript, a server-rendered table of the same series.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { DeviceStats } from "../../core/devices.ts";
import type { Chart, Overview } from "../../services/measurements.ts";
import { Island } from "../render.tsx";
import { StationList, type StationRow } from "../devices/StationList.tsx";
import { AddLink, Card, FormError, type Paging, SearchForm } from "../kit/mod.ts";
import type { StationSort } from "../../services/devices/lists.ts";
import DashboardLive from "../../islands/DashboardLive.tsx";
import type { DashboardLiveTexts } from "../../islands/dashboard_cells.ts";
import EnergyChart, { type EnergyChartTexts } from "../../islands/EnergyChart.tsx";
import { ChartPreview } from "../../islands/ChartPreview.tsx";
import {
  EARNING_UNIT,
  earningText,
  type EnergyMode,
  seriesUrl,
  yieldText,
} from "../../core/energy_modes.ts";
import { type MapStation, StationMap } from "./StationMap.tsx";

/** The dashboard's tabs. */
export const DASHBOARD_TABS = ["list", "map", "chart"] as const;
/** A dashboard tab. */
type DashboardTab = typeof DASHBOARD_TABS[number];

/** Props of {@link AdminDashboard}. */
interface AdminDashboardProps {
  t: Translate;
  tab: DashboardTab;
  q: string;
  stats: DeviceStats;
  /** Null when it could not be computed (the island loads it). */
  overview: Overview | null;
  /** The page shown of the list tab's stations (filtered by q), or null when loading failed. */
  stations: StationRow[] | null;
  /** The list tab's pager and sortable headers. */
  paging?: Paging<StationSort>;
  /** Every station, for the map (empty on the other tabs). */
  all: MapStation[];
  /** Stations in all and those online (the list tab's badge and the empty state). */
  online: { online: number; total: number };
  mode: EnergyMode;
  date: string;
  /** The chart tab's series for the server table (null on other tabs or on failure). */
  chart: Chart | null;
  /** The failing health checks (`GET /health`): their names and what failed. */
  faults?: { check: string; message: string }[];
}

/** The live cards' texts. */
function liveTexts(t: Translate): DashboardLiveTexts {
  const E = (k: string) => t(`dashboard.energy_production.${k}`);
  return {
    stations: t("dashboard.stats.stations"),
    sensors: t("dashboard.stats.sensors"),
    online: t("dashboard.stats.online"),
    units: t("dashboard.stats.units"),
    energyTitle: E("title"),
    currentPower: E("current_power"),
    today: E("today"),
    thisMonth: E("this_month"),
    total: E("total"),
    totalCapacity: E("total_capacity"),
    loading: E("loading_value"),
    kw: E("unit_kw"),
    kwh: E("unit_kwh"),
    mwh: E("unit_mwh"),
    errorLoading: t("dashboard.errors.error_loading"),
    retry: t("dashboard.errors.retry"),
    errorHeading: t("dashboard.errors.heading"),
    fetchOverview: t("dashboard.errors.fetch_overview", { status: "{status}" }),
    fetchDevices: t("dashboard.errors.fetch_devices", { status: "{status}" }),
    refresh: t("dashboard.errors.refresh"),
  };
}

/** The chart's texts. */
function chartTexts(t: Translate): EnergyChartTexts {
  const C = (k: string) => t(`dashboard.chart.${k}`);
  return {
    modes: {
      day: C("modes.day"),
      month: C("modes.month"),
      year: C("modes.year"),
      total: C("modes.total"),
    },
    previous: C("previous"),
    next: C("next"),
    totalYield: C("total_yield"),
    totalEarning: C("total_earning"),
    currency: EARNING_UNIT,
    export: C("export"),
    powerAxis: C("power_axis"),
    energyAxis: C("energy_axis"),
    noData: C("no_data"),
    loading: C("loading"),
    errorLoading: t("dashboard.errors.error_loading"),
    retry: t("dashboard.errors.retry"),
    kwh: t("dashboard.energy_production.unit_kwh"),
    mwh: t("dashboard.energy_production.unit_mwh"),
  };
}

/** The server table of the chart's series (the no-JavaScript view). */
function SeriesTable({ t, mode, chart }: { t: Translate; mode: EnergyMode; chart: Chart }) {
  const C = (k: string) => t(`dashboard.chart.${k}`);
  const day = mode === "day";
  return (
    <details className="card series-details" open={false}>
      <summary>{C("table_title")}</summary>
      <p className="muted">
        {C("total_yield")}: {yieldText(chart.totalYield, chartTexts(t))} · {C("total_earning")}:
        {" "}
        <span data-testid="series-earning">{earningText(chart.totalEarning)}</span>
      </p>
      {chart.chartData.length === 0
        ? <p className="muted">{C("no_data")}</p>
        : (
          <div className="table-wrap">
            <table className="data" data-testid="series-table">
              <thead>
                <tr>
                  <th scope="col">{day ? C("time") : C("date")}</th>
                  <th scope="col">{C("energy_axis")}</th>
                  {day && <th scope="col">{C("power_axis")}</th>}
                </tr>
              </thead>
              <tbody>
                {chart.chartData.map((p) => (
                  <tr key={p.timestamp}>
                    <td>{p.label}</td>
                    <td className="num">{p.energy.toFixed(2)}</td>
                    {day && <td className="num">{(p.power ?? 0).toFixed(2)}</td>}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
    </details>
  );
}

/** The dashboard. */
export function AdminDashboard(p: AdminDashboardProps) {
  const { t, tab } = p;
  return (
    <div className="dashboard">
      <div className="page-head">
        <div>
          <h1>{t("dashboard.admin_dashboard.title")}</h1>
          <p className="muted page-sub">{t("dashboard.admin_dashboard.subtitle")}</p>
        </div>
        <div className="page-actions">
          <AddLink href="/admin/devices/station/create" testId="add-station">
            {t("dashboard.admin_dashboard.add_station")}
          </AddLink>
        </div>
      </div>
      {p.faults && p.faults.length > 0 && (
        <FormError testId="health-faults">
          <strong>{t("errors.storage_failing")}</strong>
          <ul>
            {p.faults.map((f) => (
              <li key={f.check}>
                {t("errors.storage_check_failed", { check: f.check, error: f.message })}
              </li>
            ))}
          </ul>
          <p>{t("errors.storage_failing_text")}</p>
        </FormError>
      )}
      <Island
        of={DashboardLive}
        props={{ overview: p.overview, stats: p.stats, texts: liveTexts(t) }}
      />
      {p.online.total === 0
        ? (
          <Card
            title={t("dashboard.empty_state.title")}
            className="empty"
            data-testid="dashboard-empty"
          >
            <p>{t("dashboard.empty_state.message")}</p>
            <a className="btn" href="/admin/devices/station/create">
              {t("dashboard.empty_state.button")}
            </a>
          </Card>
        )
        : (
          <>
            <nav className="tabs" aria-label={t("dashboard.admin_dashboard.title")}>
              {DASHBOARD_TABS.map((k) => (
                <a
                  key={k}
                  className="tab"
                  href={`/admin?tab=${k}`}
                  aria-current={k === tab ? "page" : undefined}
                >
                  {t(`dashboard.tabs.${k}`)}
                </a>
              ))}
            </nav>
            {tab === "list" && (
              <>
                <div className="toolbar dash-toolbar">
                  <SearchForm
                    action="/admin"
                    hidden={{ tab: "list" }}
                    id="dash-search"
                    label={t("dashboard.search.placeholder")}
                    placeholder={t("dashboard.search.placeholder")}
                    q={p.q}
                    submit={t("common.search")}
                    clear={t("users.search.clear")}
                  />
                  <span className="badge badge-green" data-testid="online-count">
                    {t("dashboard.online_count", p.online)}
                  </span>
                </div>
                <div className="dash-list">
                  <StationList t={t} q={p.q} stations={p.stations} paging={p.paging} />
                </div>
              </>
            )}
            {tab === "map" && <StationMap t={t} stations={p.all} />}
            {tab === "chart" && (
              <>
                <section className="card">
                  {/* The series request starts with the page, not after the scripts ran. */}
                  <link
                    rel="preload"
                    as="fetch"
                    href={seriesUrl(p.mode, p.date)}
                    crossOrigin="anonymous"
                  />
                  <Island
                    of={EnergyChart}
                    props={{ mode: p.mode, date: p.date, texts: chartTexts(t) }}
                  />
                  {
                    /* The first paint's chart, drawn by the server; the island removes it once
                      it draws its own. */
                  }
                  {p.chart && (
                    <ChartPreview
                      kind={p.mode === "day" ? "area" : "bars"}
                      values={p.chart.chartData.map((d) =>
                        p.mode === "day" ? d.power ?? 0 : d.energy
                      )}
                    />
                  )}
                </section>
                {p.chart && <SeriesTable t={t} mode={p.mode} chart={p.chart} />}
              </>
            )}
          </>
        )}
    </div>
  );
}
