/**
 * The tenant's pricing (`/user/pricing`, spec 001 section 2): zone information, configuration
 * flags and the winter period, billing factors, the seasonal cards or the tiered table or the
 * basic price, and the assigned devices; the empty and error states.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { TenantPricing, TenantUnit } from "../../services/tenant/mod.ts";
import type { ZoneView } from "../../services/zones.ts";
import { buildTiers, type Season } from "../../core/tariff.ts";
import { StatusBadge } from "./format.tsx";
import { formatterOf } from "../../core/format.ts";
import { Card, Facts, PageHeader } from "../kit/mod.ts";
import { businessSchedule } from "../../core/business_bill.ts";
import { BusinessPricing } from "./BusinessPricing.tsx";

type T = (k: string, p?: Record<string, string | number>) => string;

/** A price as stored on the zone, in the reader's format (`core/format.ts`). */
type Price = (v: number, currency: string) => string;

const monthName = (t: Translate, m: number) => t(`zones.months.m${String(m).padStart(2, "0")}`);

function Levels(
  { P, z, season, price }: { P: T; z: ZoneView; season: Season | null; price: Price },
) {
  // The tiers as the bills build them: the last one is open-ended ("Over ...").
  const tiers = buildTiers(z, season).filter((x) => x.price > 0);
  const kwhOf = (d: { n: bigint; s: number }) => Number(d.n) / 10 ** d.s;
  return (
    <div className="table-wrap">
      <table className="data tenant-levels">
        <tbody>
          {tiers.map((x) => (
            <tr key={x.level}>
              <th scope="row">{P(`tiered.${x.level}`)}</th>
              <td>
                {x.to === null
                  ? P("tiered.over", { kwh: kwhOf(x.from) })
                  : P("tiered.up_to", { kwh: kwhOf(x.to) })}
              </td>
              <td className="num">{price(x.price, z.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Prices({ P, z, price }: { P: T; z: ZoneView; price: Price }) {
  if (z.seasonal_tariff) {
    return (
      <div className="tenant-grid" data-testid="pricing-seasonal">
        {(["winter", "summer"] as const).map((s) => (
          <section key={s} className="card">
            <h2>{P(`seasonal.${s}`)}</h2>
            {z.enable_levels ? <Levels P={P} z={z} season={s} price={price} /> : (
              <Facts
                className="facts"
                rows={[
                  [P("seasonal.price_per_kwh"), price(z[`${s}_price_low`], z.currency)],
                  [P("seasonal.threshold"), z[`${s}_price_low_threshold`]],
                ]}
              />
            )}
            {s === "summer" && <p className="muted small">{P("seasonal.summer_rest_of_year")}</p>}
          </section>
        ))}
      </div>
    );
  }
  if (z.enable_levels) {
    return (
      <Card title={P("tiered.title")} data-testid="pricing-tiered">
        <Levels P={P} z={z} season={null} price={price} />
      </Card>
    );
  }
  return (
    <Card title={P("basic.title")} data-testid="pricing-basic">
      <dl className="facts">
        <dt>{P("basic.price_per_kwh")}</dt>
        <dd>{price(z.price_low, z.currency)}</dd>
      </dl>
    </Card>
  );
}

function Devices({ t, P, units }: { t: Translate; P: T; units: TenantUnit[] }) {
  return (
    <Card title={P("devices.title")} data-testid="pricing-devices">
      {units.map((u) => (
        <article key={u.id} className="item-card">
          <div className="item-head">
            <strong>{u.name}</strong>
            <StatusBadge t={t} status={u.status} />
          </div>
          <dl>
            <dt>{P("devices.serial_number")}</dt>
            <dd className="mono">{u.serial_number}</dd>
            <dt>{P("devices.unit_id")}</dt>
            <dd className="mono">{u.unit_id ?? "—"}</dd>
          </dl>
          <a className="btn btn-sm btn-secondary" href={`/user/consumption/${u.id}`}>
            {P("devices.view_usage")}
          </a>
        </article>
      ))}
    </Card>
  );
}

/** The error state of the pricing page. */
export function PricingError({ t, message }: { t: Translate; message: string | null }) {
  return (
    <section className="card" role="alert">
      <h1>{t("tenant.pricing.title")}</h1>
      <p>{message ?? t("tenant.pricing.errors.load_failed")}</p>
      <a className="btn" href="/user/pricing">{t("tenant.pricing.errors.retry")}</a>
    </section>
  );
}

/** The page. */
export function PricingPage(
  { t, data, offsetMinutes }: { t: Translate; data: TenantPricing; offsetMinutes: number },
) {
  const P: T = (k, p) => t(`tenant.pricing.${k}`, p);
  const { price, date } = formatterOf(t, offsetMinutes);
  const head = <PageHeader title={P("title")} subtitle={P("subtitle")} subtitleClass="page-sub" />;
  if (data.state === "no_devices") {
    return (
      <>
        {head}
        <section className="card empty" data-testid="pricing-empty">
          <p>{P("empty.no_devices")}</p>
          <a className="btn btn-secondary" href="/user">{P("empty.back_to_dashboard")}</a>
        </section>
      </>
    );
  }
  if (data.state === "no_zone") {
    return (
      <>
        {head}
        <Card title={P("empty.zone_not_available")} className="empty" data-testid="pricing-no-zone">
          <p>{P("empty.zone_not_available_message")}</p>
          <a className="btn btn-secondary" href="/user">{P("empty.back_to_dashboard")}</a>
        </Card>
        <Devices t={t} P={P} units={data.units} />
      </>
    );
  }
  const z = data.zone;
  const onOff = (b: boolean) => P(b ? "configuration.enabled" : "configuration.disabled");
  const industrial = z.industrial_tariff;
  // A business zone (issue 34) prices energy by time band instead of levels.
  const schedule = businessSchedule(z);
  return (
    <>
      {head}
      <div className="tenant-grid">
        <Card title={P("zone_info.title")} data-testid="pricing-zone">
          <Facts
            className="facts"
            rows={[
              [P("zone_info.name"), z.name],
              [P("zone_info.currency"), z.currency],
              [P("zone_info.tariff_type"), t(`zones.tariff_types.${z.tariff_type}`)],
              [P("zone_info.last_updated"), date(z.updated_at)],
              [P("zone_info.assigned_devices"), data.units.length],
            ]}
          />
        </Card>
        <Card title={P("configuration.title")}>
          <dl className="facts">
            <dt>{P("configuration.levels")}</dt>
            <dd>{onOff(z.enable_levels)}</dd>
            <dt>{P("configuration.seasonal")}</dt>
            <dd>{onOff(z.seasonal_tariff)}</dd>
            <dt>{P("configuration.industrial")}</dt>
            <dd>{onOff(industrial)}</dd>
            <dt>{P("configuration.winter_period")}</dt>
            <dd data-testid="winter-period">
              {z.seasonal_tariff
                ? P("configuration.winter_period_value", {
                  start_month: monthName(t, z.winter_start_month),
                  start_day: z.winter_start_day,
                  end_month: monthName(t, z.winter_end_month),
                  end_day: z.winter_end_day,
                })
                : P("configuration.not_configured")}
            </dd>
          </dl>
        </Card>
        <Card title={P("billing_factors.title")}>
          <dl className="facts">
            <dt>{P("billing_factors.base_tariff")}</dt>
            <dd>{price(z.base_tariff, z.currency)}</dd>
            <dt>{P("billing_factors.tax")}</dt>
            <dd>{z.tax_percentage} %</dd>
            <dt>{P("billing_factors.compensation")}</dt>
            <dd>
              {industrial && z.compensation_factor_enabled
                ? `${z.compensation_factor_percentage} %`
                : P("configuration.disabled")}
            </dd>
          </dl>
          {industrial && (
            <>
              <h3>{P("billing_factors.industrial_components")}</h3>
              <Facts
                className="facts"
                rows={[
                  [P("billing_factors.low_tension"), onOff(z.low_tension_enabled)],
                  [P("billing_factors.power_factor"), onOff(z.power_factor_enabled)],
                  [
                    P("billing_factors.distribution"),
                    z.distribution_enabled ? price(z.distribution_price, z.currency) : onOff(false),
                  ],
                  [
                    P("billing_factors.capacity"),
                    z.capacity_enabled ? price(z.capacity_price, z.currency) : onOff(false),
                  ],
                ]}
              />
            </>
          )}
        </Card>
      </div>
      {schedule
        ? <BusinessPricing t={t} z={z} schedule={schedule} price={price} />
        : <Prices P={P} z={z} price={price} />}
      <Devices t={t} P={P} units={data.units} />
    </>
  );
}
