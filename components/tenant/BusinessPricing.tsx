/**
 * A business zone's prices on the tenant's pricing page (issue 34): each time band's price,
 * the band hours by season and kind of day (the zone's schedule, core/tou.ts), the demand
 * prices in $/kW with the capacity demand's rule, and the power factor rule (core/power_factor.ts).
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { ZoneView } from "../../services/zones.ts";
import { BANDS, type BandSchedule } from "../../core/tou.ts";
import { DEFAULT_PF_THRESHOLD } from "../../core/power_factor.ts";
import { Card, Facts } from "../kit/mod.ts";

type Price = (v: number, currency: string) => string;

const hour = (h: number) => `${String(h).padStart(2, "0")}:00`;
const DAYS = ["weekday", "saturday", "sunday"] as const;

/** The band hours of one season: a row per kind of day, its spans in order. */
function SeasonHours(
  { t, schedule, season }: { t: Translate; schedule: BandSchedule; season: "summer" | "winter" },
) {
  const B = (k: string) => t(`tenant_business.${k}`);
  return (
    <section className="business-season" data-testid={`business-hours-${season}`}>
      <h3>{B(`seasons.${season}`)}</h3>
      <div className="table-wrap">
        <table className="data business-hours">
          <tbody>
            {DAYS.map((d) => (
              <tr key={d}>
                <th scope="row">{B(`days.${d}`)}</th>
                <td>
                  {schedule[season][d].map((s) => (
                    <span key={s.from} className={`band-span band-${s.band}`}>
                      {`${hour(s.from)}–${hour(s.to)} ${t(`business_tariff.bill.bands.${s.band}`)}`}
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The business tariff cards. */
export function BusinessPricing(
  { t, z, schedule, price }: {
    t: Translate;
    z: ZoneView;
    schedule: BandSchedule;
    price: Price;
  },
) {
  const B = (k: string, p?: Record<string, string | number>) => t(`tenant_business.${k}`, p);
  const band = { base: z.price_base, intermedia: z.price_intermedia, punta: z.price_punta };
  const threshold = z.power_factor_threshold || DEFAULT_PF_THRESHOLD;
  const floor = z.capacity_floor_percentage ?? 0;
  return (
    <div className="tenant-grid" data-testid="pricing-business">
      <Card title={B("bands_title")}>
        <Facts
          className="facts"
          rows={BANDS.map((b) => [
            t(`business_tariff.bill.bands.${b}`),
            band[b] === undefined ? "—" : `${price(band[b], z.currency)}/kWh`,
          ])}
        />
        <p className="muted small">
          {B("schedule", { schedule: t(`business_tariff.form.schedules.${schedule.id}`) })}
        </p>
        <SeasonHours t={t} schedule={schedule} season="summer" />
        <SeasonHours t={t} schedule={schedule} season="winter" />
        <p className="muted small">{B("seasons_note")}</p>
      </Card>
      <Card title={B("demand_title")} data-testid="pricing-demand">
        <Facts
          className="facts"
          rows={[
            [
              B("distribution"),
              z.distribution_enabled
                ? `${price(z.distribution_price, z.currency)}/kW`
                : B("not_charged"),
            ],
            [
              B("capacity"),
              z.capacity_enabled ? `${price(z.capacity_price, z.currency)}/kW` : B("not_charged"),
            ],
          ]}
        />
        <p className="small">{B("demand_rule")}</p>
        <p className="small" data-testid="capacity-rule">
          {floor > 0 ? B("capacity_rule", { percent: floor }) : B("capacity_rule_punta")}
        </p>
        <h3>{B("pf_title")}</h3>
        <p className="small" data-testid="pf-rule">
          {z.power_factor_enabled
            ? B("pf_rule", { threshold, surcharge: 120, bonus: 2.5 })
            : B("not_charged")}
        </p>
      </Card>
    </div>
  );
}
