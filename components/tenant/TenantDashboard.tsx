/**
 * The tenant dashboard (`/user`, spec 001 section 2): welcome, the four cards, the chart tabs
 * (links, so they work without JavaScript), the units, the three most recent bills and the
 * quick actions; the empty state when no unit is assigned. Cards, units and bills refresh
 * every 30 s (LiveRefresh).
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { User } from "../../core/types.ts";
import type { DashboardChart, TenantDashboard as Data } from "../../services/tenant/mod.ts";
import { periodLabel } from "../../core/periods.ts";
import { Island } from "../render.tsx";
import { Stat } from "../HomePage.tsx";
import { ModeChart } from "../ModeChart.tsx";
import LiveRefresh from "../../islands/LiveRefresh.tsx";
import { localTime, StatusBadge } from "./format.tsx";
import { formatterOf } from "../../core/format.ts";
import { Card, PageHeader, RetryCard } from "../kit/mod.ts";

/** Props of {@link TenantDashboard}. */
interface TenantDashboardProps {
  t: Translate;
  user: User;
  data: Data;
  offset: number;
}

const CHART_KIND = { power: "area", consumption: "bars", monthly: "line" } as const;

/** The page's heading. */
function Head({ t, user }: { t: Translate; user: User }) {
  return (
    <PageHeader
      title={t("tenant.dashboard.welcome", { name: user.full_name })}
      subtitle={t("tenant.dashboard.subtitle")}
      subtitleClass="page-sub"
    />
  );
}

/** The error state: the text with a retry link. */
export function DashboardError({ t, user }: { t: Translate; user: User }) {
  return (
    <>
      <Head t={t} user={user} />
      <RetryCard t={t} prefix="tenant.dashboard.errors" href="/user" testId="tenant-error" />
    </>
  );
}

/** The dashboard. */
export function TenantDashboard({ t, user, data, offset }: TenantDashboardProps) {
  const D = (k: string, p?: Record<string, string | number>) => t(`tenant.dashboard.${k}`, p);
  const { money, kwh, kw } = formatterOf(t);
  if (data.units.length === 0) {
    return (
      <>
        <Head t={t} user={user} />
        <Card title={D("empty.title")} className="empty" data-testid="tenant-empty">
          <p>{D("empty.message")}</p>
          <a className="btn btn-secondary" href="#contact">{t("layout.contact.title")}</a>
        </Card>
      </>
    );
  }
  const c = data.cards;
  const mode = data.chart.mode;
  const axis = mode === "power" ? D("chart.power_axis") : D("chart.energy_axis");
  return (
    <>
      <Head t={t} user={user} />
      <Island
        of={LiveRefresh}
        props={{ seconds: 30, errorText: D("errors.heading"), retry: D("errors.retry") }}
      />
      <div className="stats" data-live="cards" data-testid="tenant-cards">
        <Stat label={D("cards.current_usage")} value={kw(c.currentKw)} />
        <Stat label={D("cards.today")} value={kwh(c.todayKwh)} />
        <Stat label={D("cards.monthly")} value={kwh(c.monthKwh)} />
        <Stat label={D("cards.estimated_cost")} value={money(c.estimatedCostCents, c.currency)} />
      </div>
      <ModeChart
        title={D("chart.title")}
        modes={["power", "consumption", "monthly"] as DashboardChart[]}
        mode={mode}
        href={(m) => `/user?chart=${m}`}
        tab={(m) => D(`chart.${m}`)}
        kind={CHART_KIND[mode]}
        points={data.chart.points}
        axis={axis}
        caption={D("chart.table_caption")}
        labelHeading={D(`chart.label_${mode}`)}
        noData={D("chart.no_data")}
      />
      <Card title={D("units.title")} data-live="units">
        <div className="tenant-units">
          {data.units.map((u) => (
            <article key={u.id} className="item-card" data-testid="tenant-unit">
              <div className="item-head">
                <strong>{u.name}</strong>
                <StatusBadge t={t} status={u.status} />
              </div>
              <dl>
                <dt>{D("units.city")}</dt>
                <dd>{u.station?.city ?? D("units.no_city")}</dd>
                <dt>{D("units.serial_number")}</dt>
                <dd className="mono">{u.serial_number}</dd>
                <dt>{D("units.last_reading")}</dt>
                <dd>{localTime(t, u.last_seen, offset)}</dd>
                <dt>{D("units.station")}</dt>
                <dd>{u.station?.name ?? "—"}</dd>
                <dt>{D("units.unit_id")}</dt>
                <dd className="mono">{u.unit_id ?? "—"}</dd>
              </dl>
              <a className="btn btn-sm" href={`/user/consumption/${u.id}`}>{D("units.details")}</a>
            </article>
          ))}
        </div>
      </Card>
      <section className="card" data-live="bills">
        <div className="section-head">
          <h2>{D("recent_bills.title")}</h2>
          <a href="/user/billing">{D("recent_bills.view_all")}</a>
        </div>
        {data.recentBills.length === 0
          ? <p className="muted">{D("recent_bills.empty")}</p>
          : (
            <ul className="tenant-bills" data-testid="recent-bills">
              {data.recentBills.map((r) => (
                <li key={r.bill.id}>
                  <a href={`/user/billing?period=${r.period}`}>
                    <span>{periodLabel(t, r.period)} · {r.unit_name}</span>
                    <strong>{money(r.bill.total_cost, r.bill.currency)}</strong>
                  </a>
                </li>
              ))}
            </ul>
          )}
      </section>
      <Card title={D("quick_actions.title")}>
        <div className="quick-actions">
          <a className="btn btn-secondary" href="/user/consumption">
            {D("quick_actions.consumption")}
          </a>
          <a className="btn btn-secondary" href="/user/billing">{D("quick_actions.billing")}</a>
          <a className="btn btn-secondary" href="/user/pricing">{D("quick_actions.pricing")}</a>
          <a className="btn btn-secondary" href="/user/settings">{D("quick_actions.settings")}</a>
        </div>
      </Card>
    </>
  );
}
