/**
 * The tenant's consumption overview (`/user/consumption`, spec 001 section 2): totals of units,
 * this month's kWh and cost and the average efficiency, and a card per unit linking to it.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { ConsumptionOverview } from "../../services/tenant/mod.ts";
import type { Trend } from "../../core/insights.ts";
import { Stat } from "../HomePage.tsx";
import { StatusBadge } from "./format.tsx";
import { formatterOf } from "../../core/format.ts";
import { Card, Facts, PageHeader } from "../kit/mod.ts";

/** The trend against last month as words. */
export function TrendText({ t, trend }: { t: Translate; trend: Trend }) {
  const up = trend.direction === "up";
  return (
    <span className={trend.percent === 0 ? "muted" : up ? "trend-up" : "trend-down"}>
      {trend.percent === 0 ? "" : up ? "▲ " : "▼ "}
      {t(`tenant.consumption_overview.unit_card.trend_${trend.direction}`, {
        percent: trend.percent,
      })}
    </span>
  );
}

/** The efficiency as text, or a dash when unknown. */
export const efficiencyText = (e: number) => (e > 0 ? `${e.toFixed(1)} %` : "—");

/** The page. */
export function ConsumptionPage({ t, data }: { t: Translate; data: ConsumptionOverview }) {
  const C = (k: string, p?: Record<string, string | number>) =>
    t(`tenant.consumption_overview.${k}`, p);
  const { money, kwh } = formatterOf(t);
  const x = data.totals;
  return (
    <>
      <PageHeader title={C("title")} subtitle={C("subtitle")} subtitleClass="page-sub" />
      <div className="stats" data-testid="consumption-totals">
        <Stat label={C("totals.units")} value={x.units} />
        <Stat label={C("totals.monthly_kwh")} value={kwh(x.monthKwh)} />
        <Stat label={C("totals.monthly_cost")} value={money(x.costCents, x.currency)} />
        <Stat label={C("totals.average_efficiency")} value={efficiencyText(x.averageEfficiency)} />
      </div>
      {data.units.length === 0
        ? (
          <Card title={C("empty")} className="empty">
            <p>{t("tenant.dashboard.empty.message")}</p>
          </Card>
        )
        : (
          <div className="tenant-grid">
            {data.units.map((u) => (
              <article key={u.unit.id} className="card" data-testid="consumption-unit">
                <div className="section-head">
                  <h2>{u.unit.name}</h2>
                  <StatusBadge t={t} status={u.unit.status} />
                </div>
                <p className="muted small">{u.unit.station?.name}</p>
                <Facts
                  className="facts"
                  rows={[
                    [C("unit_card.monthly_kwh"), kwh(u.monthKwh)],
                    [C("unit_card.cost"), money(u.costCents, u.currency)],
                    [C("unit_card.efficiency"), efficiencyText(u.efficiency)],
                  ]}
                />
                <p>
                  <TrendText t={t} trend={u.trend} />
                </p>
                <a className="btn btn-sm" href={`/user/consumption/${u.unit.id}`}>
                  {C("unit_card.view")}
                </a>
              </article>
            ))}
          </div>
        )}
    </>
  );
}
