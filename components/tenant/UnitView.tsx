/**
 * One tenant unit (`/user/consumption/{id}`, spec 001 section 2): tabs Overview, Analytics and
 * Insights as links (`?tab=`, so they work without JavaScript), and the unit information card.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { UnitDetail } from "../../services/tenant/mod.ts";
import { UNIT_TABS, type UnitTab } from "../../core/tenant_queries.ts";
import { Island } from "../render.tsx";
import { Stat } from "../HomePage.tsx";
import TenantChart from "../../islands/TenantChart.tsx";
import { localTime, StatusBadge } from "./format.tsx";
import { formatterOf } from "../../core/format.ts";
import { efficiencyText, TrendText } from "./ConsumptionPage.tsx";
import { cityOf } from "../../core/reports.ts";
import { Card, Facts } from "../kit/mod.ts";

type T = (k: string, p?: Record<string, string | number>) => string;

function Overview({ t, U, d }: { t: Translate; U: T; d: UnitDetail }) {
  const { money, kwh, kw, number } = formatterOf(t);
  return (
    <>
      <div className="stats" data-testid="unit-overview">
        <Stat label={U("overview.current_power")} value={kw(d.now.power)} />
        <Stat label={U("overview.monthly_usage")} value={kwh(d.monthKwh)} />
        <Stat label={U("overview.cost")} value={money(d.costCents, d.currency)} />
        <Stat
          label={U("overview.efficiency")}
          value={efficiencyText(d.efficiency)}
        />
      </div>
      <p className="muted">
        {U("overview.average_daily", { kwh: number(d.dailyAverageKwh) })} ·{" "}
        <TrendText t={t} trend={d.trend} />
        {d.band && (
          <>
            {" · "}
            {U(`efficiency_bands.${d.band}`)} ({U(`efficiency_bands.${d.band}_range`)})
          </>
        )}
      </p>
      <Card title={U("overview.trend_chart")}>
        <Island
          of={TenantChart}
          props={{
            kind: "line",
            labels: d.trendSeries.map((p) => p.label),
            series: [{ name: U("analytics.usage"), values: d.trendSeries.map((p) => p.value) }],
            caption: t("tenant.dashboard.chart.table_caption"),
            labelHeading: t("tenant.dashboard.chart.label_monthly"),
            noData: t("tenant.common_states.no_data"),
            name: "unit-trend",
          }}
        />
      </Card>
    </>
  );
}

function Analytics({ t, U, d }: { t: Translate; U: T; d: UnitDetail }) {
  const peaks = [
    ["morning_peak", "morning_peak_time"],
    ["evening_peak", "evening_peak_time"],
    ["off_peak", "off_peak_time"],
  ];
  return (
    <>
      <Card title={U("analytics.hourly_title")} data-testid="unit-analytics">
        <Island
          of={TenantChart}
          props={{
            kind: "bars",
            labels: d.hourly.map((_, h) => String(h).padStart(2, "0")),
            series: [{ name: U("analytics.usage"), values: d.hourly }],
            caption: t("tenant.dashboard.chart.table_caption"),
            labelHeading: U("analytics.hour"),
            noData: t("tenant.common_states.no_data"),
            name: "hourly",
          }}
        />
      </Card>
      <Card title={U("analytics.peak_hours_title")}>
        <dl className="facts">
          {peaks.map(([name, time]) => [
            <dt key={name}>{U(`analytics.${name}`)}</dt>,
            <dd key={time}>{U(`analytics.${time}`)}</dd>,
          ])}
        </dl>
      </Card>
    </>
  );
}

const TIP_BADGE = { success: "badge-green", info: "badge-blue", warning: "badge-yellow" };

function Insights({ t, U, d }: { t: Translate; U: T; d: UnitDetail }) {
  const { money, kwh } = formatterOf(t);
  return (
    <>
      <Card title={U("insights.title")} data-testid="unit-insights">
        {d.insights.length === 0
          ? <p className="muted">{U("insights.empty")}</p>
          : (
            <ul className="tenant-tips">
              {d.insights.map((i) => (
                <li key={i.key} data-tip={i.key}>
                  <span className={`badge ${TIP_BADGE[i.type]}`}>
                    {U(`insights.types.${i.type}`)}
                  </span>
                  <span>
                    {U(`insights.tips.${i.key}`, {
                      ...i.params,
                      ...(typeof i.params.amount === "number"
                        ? { amount: money(i.params.amount, d.currency) }
                        : {}),
                    })}
                  </span>
                </li>
              ))}
            </ul>
          )}
      </Card>
      <Card title={U("insights.forecast.title")} data-testid="unit-forecast">
        <Facts
          className="facts"
          rows={[
            [U("insights.forecast.projected_kwh"), kwh(d.forecast.projectedKwh)],
            [
              U("insights.forecast.projected_cost"),
              money(d.forecast.projectedCostCents, d.currency),
            ],
            [
              U("insights.forecast.potential_savings"),
              money(d.forecast.potentialSavingsCents, d.currency),
            ],
          ]}
        />
      </Card>
    </>
  );
}

/** Props of {@link UnitView}. */
interface UnitViewProps {
  t: Translate;
  d: UnitDetail;
  tab: UnitTab;
  offset: number;
}

/** The unit page. */
export function UnitView({ t, d, tab, offset }: UnitViewProps) {
  const U: T = (k, p) => t(`tenant.unit_view.${k}`, p);
  const u = d.unit;
  return (
    <>
      <p>
        <a href="/user/consumption">← {U("back")}</a>
      </p>
      <div className="page-head">
        <div>
          <h1>{u.name}</h1>
          <p className="page-sub">{u.station?.name}</p>
        </div>
        <StatusBadge t={t} status={u.status} />
      </div>
      <nav className="tabs tenant-tabs" aria-label={u.name}>
        {UNIT_TABS.map((k) => (
          <a
            key={k}
            className="tab"
            href={`/user/consumption/${u.id}?tab=${k}`}
            aria-current={k === tab ? "page" : undefined}
          >
            {U(`tabs.${k}`)}
          </a>
        ))}
      </nav>
      {tab === "overview" && <Overview t={t} U={U} d={d} />}
      {tab === "analytics" && <Analytics t={t} U={U} d={d} />}
      {tab === "insights" && <Insights t={t} U={U} d={d} />}
      <Card title={U("unit_info.title")} data-testid="unit-info">
        <dl className="facts">
          <dt>{U("unit_info.name")}</dt>
          <dd>{u.name}</dd>
          <dt>{U("unit_info.unit_id")}</dt>
          <dd className="mono">{u.unit_id ?? "—"}</dd>
          <dt>{U("unit_info.station")}</dt>
          <dd>{u.station?.name ?? "—"}</dd>
          <dt>{U("unit_info.location")}</dt>
          <dd>{u.station ? cityOf(t, u.station.location) : "—"}</dd>
          <dt>{U("unit_info.serial_number")}</dt>
          <dd className="mono">{u.serial_number}</dd>
          <dt>{U("unit_info.status")}</dt>
          <dd>
            <StatusBadge t={t} status={u.status} />
          </dd>
          <dt>{U("unit_info.last_reading")}</dt>
          <dd>{localTime(t, d.now.readingAt ?? u.last_seen, offset)}</dd>
        </dl>
      </Card>
    </>
  );
}
