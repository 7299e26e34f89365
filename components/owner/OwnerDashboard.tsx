/**
 * The owner's dashboard (`/customer`, spec 001 section 2): welcome, the tiles (current power,
 * today, this month, and the total of the energy overview, each shown once), the chart with its
 * three modes (links, so they work without JavaScript; each reloads the chart) and the
 * installations; the error state with Retry. Tiles and installations refresh every 30 s
 * (LiveRefresh).
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { User } from "../../core/types.ts";
import type { OwnerChart, OwnerDashboard as Data } from "../../services/owner/mod.ts";
import { Island } from "../render.tsx";
import { Stat } from "../HomePage.tsx";
import { Card, PageHeader, ResponsiveList, RetryCard, StatusBadge } from "../kit/mod.ts";
import { ModeChart } from "../ModeChart.tsx";
import LiveRefresh from "../../islands/LiveRefresh.tsx";
import { day, num, when } from "./format.ts";

/** An installation row: the station's facts as the list shows them. */
export interface InstallationRow {
  id: number;
  name: string;
  location: string;
  serial_number: string;
  online: boolean;
  last_seen: number | null;
  customer: string | null;
  zone: string | null;
  type: string | null;
  created_at: number;
}

/** Props of {@link OwnerDashboard}. */
interface OwnerDashboardProps {
  t: Translate;
  user: User;
  data: Data;
  rows: InstallationRow[];
  offset: number;
}

const KIND = { power: "area", energy: "bars", trend: "line" } as const;
const MODE_TEXT = { power: "power_24h", energy: "energy_7d", trend: "trend_6m" } as const;

function Head({ t, user }: { t: Translate; user: User }) {
  return (
    <PageHeader
      title={t("customer.dashboard.welcome", { name: user.full_name })}
      subtitle={t("customer.dashboard.subtitle")}
    />
  );
}

/** The error state: heading, message and Retry. */
export function OwnerDashboardError({ t, user }: { t: Translate; user: User }) {
  return (
    <>
      <Head t={t} user={user} />
      <RetryCard t={t} prefix="customer.dashboard.errors" href="/customer" testId="owner-error" />
    </>
  );
}

/** The dashboard. */
export function OwnerDashboard({ t, user, data, rows, offset }: OwnerDashboardProps) {
  const D = (k: string, p?: Record<string, string | number>) => t(`customer.dashboard.${k}`, p);
  const e = data.energy;
  const mode = data.chart.mode;
  const axis = mode === "power" ? D("chart.power_axis") : D("chart.energy_axis");
  const I = (k: string) => D(`installations.${k}`);
  return (
    <>
      <Head t={t} user={user} />
      <Island
        of={LiveRefresh}
        props={{ seconds: 30, errorText: D("errors.heading"), retry: D("errors.retry") }}
      />
      <div className="stats" data-live="tiles" data-testid="owner-tiles">
        <Stat label={D("tiles.current_power")} value={num(e.currentKw, 2, "kW")} />
        <Stat label={D("tiles.todays_yield")} value={num(e.todayKwh, 2, "kWh")} />
        <Stat label={D("tiles.monthly_yield")} value={num(e.monthMwh, 3, "MWh")} />
        <Stat label={D("energy_overview.total")} value={num(e.totalMwh, 3, "MWh")} />
      </div>
      <ModeChart
        title={D("chart.title")}
        modes={["power", "energy", "trend"] as OwnerChart[]}
        mode={mode}
        href={(m) => `/customer?chart=${m}`}
        tab={(m) => D(`chart.${MODE_TEXT[m]}`)}
        kind={KIND[mode]}
        points={data.chart.points}
        axis={axis}
        caption={D("chart.table_caption")}
        labelHeading={D(`chart.label_${mode}`)}
        noData={D("chart.no_data")}
      />
      <Card title={I("title")} data-live="installations">
        <ResponsiveList
          label={I("title")}
          rows={rows}
          framed={false}
          testId="owner-installations"
          rowKey={(r) => r.id}
          rowAttrs={(r) => ({ "data-station-id": r.id })}
          empty={<p className="muted">{I("empty")}</p>}
          columns={[
            { label: I("name"), primary: true, cell: (r) => <strong>{r.name}</strong> },
            {
              label: I("status"),
              aside: true,
              cell: (r) => (
                <StatusBadge tone={r.online ? "green" : "red"}>
                  {I(r.online ? "online" : "offline")}
                </StatusBadge>
              ),
            },
            { label: I("location"), cell: (r) => r.location },
            { label: I("serial_number"), className: "mono", cell: (r) => r.serial_number },
            { label: I("last_seen"), cell: (r) => when(t, r.last_seen, offset) },
            { label: I("customer"), cell: (r) => r.customer ?? "—" },
            { label: I("zone"), cell: (r) => r.zone ?? I("no_zone") },
            { label: I("type"), cell: (r) => r.type ?? "—" },
            { label: I("created"), cell: (r) => day(r.created_at, offset) },
            {
              label: I("details"),
              actions: true,
              cell: (r) => (
                <a className="btn btn-sm" href={`/customer/installations/${r.id}`}>
                  {I("details")}
                </a>
              ),
            },
          ]}
        />
      </Card>
    </>
  );
}
