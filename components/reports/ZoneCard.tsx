/**
 * The pricing zone card of the unit report (spec 001 section 2): name, billing type, base
 * tariff, tax rate, currency, the price table of its mode (basic, tiered, seasonal, seasonal
 * tiered; tiered levels only when their price is above 0) and the industrial components.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { Zone } from "../../core/zone.ts";
import { LEVEL_NAMES } from "../../core/zone.ts";
import { formatterOf } from "../../core/format.ts";
import { Card, Facts } from "../kit/mod.ts";

const field = (z: Zone, k: string) => (z as unknown as Record<string, number>)[k] ?? 0;

/** Props of {@link ZoneCard}. */
interface ZoneCardProps {
  t: Translate;
  zone: Zone | null;
}

/** The card. */
export function ZoneCard({ t, zone }: ZoneCardProps) {
  const { price } = formatterOf(t);
  const Z = (k: string, p?: Record<string, string | number>) =>
    t(`reports.unit_report.pricing_zone.${k}`, p);
  const T = (k: string, p?: Record<string, string | number>) =>
    t(`reports.unit_report.price_table.${k}`, p);
  if (!zone) {
    return (
      <Card title={Z("title")} headingId="zone-title">
        <p className="muted">{Z("no_zone")}</p>
      </Card>
    );
  }
  const cur = zone.currency;
  /** The levels of a season prefix ("" / "summer_" / "winter_") with a price above 0. */
  const levels = (prefix: string) =>
    LEVEL_NAMES.map((l, i) => ({
      level: l,
      price: field(zone, `${prefix}price_${l}`),
      threshold: field(zone, `${prefix}price_${l}_threshold`),
      prev: i === 0 ? 0 : field(zone, `${prefix}price_${LEVEL_NAMES[i - 1]}_threshold`),
    })).filter((x) => x.price > 0);
  const range = (x: { level: string; threshold: number; prev: number }) =>
    x.level === "surplus" || x.threshold <= 0
      ? T("over", { kwh: x.prev })
      : T("up_to", { kwh: x.threshold });
  const winter = `${zone.winter_start_day}/${zone.winter_start_month}`;
  const winterEnd = `${zone.winter_end_day}/${zone.winter_end_month}`;
  let table;
  if (zone.seasonal_tariff && zone.enable_levels) {
    const w = levels("winter_");
    const s = levels("summer_");
    const names = LEVEL_NAMES.filter((l) =>
      w.some((x) => x.level === l) || s.some((x) => x.level === l)
    );
    table = (
      <>
        <h3>{T("seasonal_tiered_title")}</h3>
        <p className="muted small">{T("winter_range", { start: winter, end: winterEnd })}</p>
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{T("level")}</th>
                <th scope="col" className="num">{T("summer_threshold")}</th>
                <th scope="col" className="num">{T("summer_price")}</th>
                <th scope="col" className="num">{T("winter_threshold")}</th>
                <th scope="col" className="num">{T("winter_price")}</th>
              </tr>
            </thead>
            <tbody>
              {names.map((l) => {
                const sv = s.find((x) => x.level === l);
                const wv = w.find((x) => x.level === l);
                return (
                  <tr key={l}>
                    <td>{T(l)}</td>
                    <td className="num">{sv ? range(sv) : "-"}</td>
                    <td className="num nowrap">{sv ? price(sv.price, cur) : "-"}</td>
                    <td className="num">{wv ? range(wv) : "-"}</td>
                    <td className="num nowrap">{wv ? price(wv.price, cur) : "-"}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </>
    );
  } else if (zone.seasonal_tariff) {
    table = (
      <>
        <h3>{T("seasonal_title")}</h3>
        <Facts
          className="info-list"
          rows={[
            [
              T("winter_range", { start: winter, end: winterEnd }),
              price(zone.winter_price_low, cur),
            ],
            [T("summer_rest"), price(zone.summer_price_low, cur)],
          ]}
        />
      </>
    );
  } else if (zone.enable_levels) {
    table = (
      <>
        <h3>{T("tiered_title")}</h3>
        <dl className="info-list" data-testid="tiered-prices">
          {levels("").flatMap((x) => [
            <dt key={`${x.level}-t`}>{T(x.level)} · {range(x)}</dt>,
            <dd key={`${x.level}-p`} className="nowrap">{price(x.price, cur)}</dd>,
          ])}
        </dl>
      </>
    );
  } else {
    table = (
      <>
        <h3>{T("basic_title")}</h3>
        <dl className="info-list">
          <dt>{T("price_per_kwh")}</dt>
          <dd>{price(zone.price_low, cur)}</dd>
        </dl>
      </>
    );
  }
  const I = (k: string) => t(`reports.unit_report.industrial.${k}`);
  const onOff = (b: boolean) => I(b ? "enabled" : "disabled");
  return (
    <Card title={Z("title")} headingId="zone-title" data-testid="zone-card">
      <dl className="info-list">
        <dt>{Z("name")}</dt>
        <dd>{zone.name}</dd>
        <dt>{Z("billing_type")}</dt>
        <dd>{t(`billing.billing_types.${zone.billing_type}`)}</dd>
        <dt>{Z("base_tariff")}</dt>
        <dd>{price(zone.base_tariff, cur)}</dd>
        <dt>{Z("tax_rate")}</dt>
        <dd>{zone.tax_percentage} %</dd>
        <dt>{Z("currency")}</dt>
        <dd>{cur}</dd>
      </dl>
      {table}
      {zone.industrial_tariff && (
        <>
          <h3>{I("title")}</h3>
          <Facts
            className="info-list"
            rows={[
              [I("low_tension"), onOff(zone.low_tension_enabled)],
              [I("power_factor"), onOff(zone.power_factor_enabled)],
              [
                I("distribution"),
                zone.distribution_enabled ? price(zone.distribution_price, cur) : onOff(false),
              ],
              [
                I("capacity"),
                zone.capacity_enabled ? price(zone.capacity_price, cur) : onOff(false),
              ],
              [
                I("compensation_factor"),
                zone.compensation_factor_enabled
                  ? `${zone.compensation_factor_percentage} %`
                  : onOff(false),
              ],
            ]}
          />
        </>
      )}
    </Card>
  );
}
