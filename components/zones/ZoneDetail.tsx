/**
 * The zone detail page of /admin/zones/{id} (spec 001 section 2): header with the station
 * count, Edit Zone and Delete Zone; cards Zone Information, Pricing Configuration, Billing
 * Factors, Customer Billing; the pricing table by mode with a 100 kWh example; the price
 * history chart; the assigned stations (table and phone cards). Delete asks for
 * confirmation; with stations assigned it shows why it cannot delete instead.
 */
import type { ReactNode } from "react";
import type { Translate } from "../../services/platform/i18n.ts";
import type { VersionView, ZoneStation, ZoneView } from "../../services/zones.ts";
import type { ZoneHistoryEntry } from "../../core/zone_versions.ts";
import type { Zone } from "../../core/zone.ts";
import { buildTiers, computeUnitBill, pricingMode, type Season } from "../../core/tariff.ts";
import { Island } from "../render.tsx";
import ConfirmSubmit from "../../islands/ConfirmSubmit.tsx";
import { configurationText, money, monthDay } from "./format.ts";
import { PriceHistoryChart } from "./PriceHistoryChart.tsx";
import { VersionList } from "./VersionList.tsx";
import {
  type BadgeTone,
  Card,
  Facts,
  NotFound,
  PagerOf,
  type Paging,
  ResponsiveList,
  sortBy,
  StatusBadge,
} from "../kit/mod.ts";

/** Props of {@link ZoneDetail}. */
interface ZoneDetailProps {
  t: Translate;
  zone: ZoneView;
  /** Null when loading failed. */
  stations: ZoneStation[] | null;
  /** The page shown of the zone's stations: pager and sortable headers. */
  paging?: Paging;
  history: ZoneHistoryEntry[] | null;
  /** Every price version, or null when they could not be read. */
  versions: VersionView[] | null;
  /** Show the 'cannot delete' dialog. */
  blocked: boolean;
}

function ZoneCard({ title, children }: { title: string; children: ReactNode }) {
  return <Card title={title} className="zone-card">{children}</Card>;
}

/** The tiers of a season as table rows: level, range, price. */
/** A card of the zone's history (`area`): its subtitle, then `children` or the load failure. */
function HistoryCard({ D, area, failed, children }: {
  D: (k: string) => string;
  area: string;
  failed: boolean;
  children: ReactNode;
}) {
  return (
    <ZoneCard title={D(`${area}.title`)}>
      <p className="muted">{D(`${area}.subtitle`)}</p>
      {failed
        ? <div className="alert alert-error">{D("errors.load_history_failed")}</div>
        : children}
    </ZoneCard>
  );
}

function tierRows(t: Translate, zone: Zone, season: Season | null) {
  const T = (k: string, p?: Record<string, string | number>) =>
    t(`zones.zone_detail.pricing_table.${k}`, p);
  const num = (d: { n: bigint; s: number }) => Number(d.n) / 10 ** d.s;
  const tiers = buildTiers(zone, season);
  return tiers.map((tier, i) => {
    const from = num(tier.from);
    const range = !zone.enable_levels
      ? T("all_consumption")
      : tier.to === null
      ? (i === 0 ? T("all_consumption") : T("range_over", { from }))
      : i === 0
      ? T("range_first", { to: num(tier.to) })
      : T("range_between", { from, to: num(tier.to) });
    return { level: t(`zones.levels.${tier.level}`), range, price: tier.price };
  });
}

function PricingTable({ t, zone }: { t: Translate; zone: Zone }) {
  const T = (k: string, p?: Record<string, string | number>) =>
    t(`zones.zone_detail.pricing_table.${k}`, p);
  const mode = pricingMode(zone);
  const seasons: (Season | null)[] = zone.seasonal_tariff ? ["summer", "winter"] : [null];
  const example = (season: Season | null) => {
    try {
      const r = computeUnitBill(zone, 100, season ? { season } : {});
      return money(r.energy_cost / 100, zone.currency);
    } catch {
      return "—";
    }
  };
  return (
    <ZoneCard title={T(mode)}>
      {seasons.map((season) => (
        <div key={season ?? "all"} className="table-wrap" data-season={season ?? "all"}>
          {season && <h3>{t(`zones.zone_form.${season}`)}</h3>}
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{T("columns.level")}</th>
                <th scope="col">{T("columns.range")}</th>
                <th scope="col">{T("columns.price")}</th>
              </tr>
            </thead>
            <tbody>
              {tierRows(t, zone, season).map((r) => (
                <tr key={r.level}>
                  <td>{r.level}</td>
                  <td>{r.range}</td>
                  <td className="nowrap">{money(r.price, zone.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="muted">{T("example_cost", { kwh: 100, amount: example(season) })}</p>
        </div>
      ))}
      {zone.seasonal_tariff && (
        <p className="muted">
          {T("winter_applies", {
            start: monthDay(t, zone.winter_start_month, zone.winter_start_day),
            end: monthDay(t, zone.winter_end_month, zone.winter_end_day),
          })} {T("summer_applies")}
        </p>
      )}
    </ZoneCard>
  );
}

const STATUS_BADGE: Record<string, BadgeTone> = { online: "green", offline: "red" };

/** The page. */
export function ZoneDetail(
  { t, zone, stations, paging, history, versions, blocked }: ZoneDetailProps,
) {
  const D = (k: string, p?: Record<string, string | number>) => t(`zones.zone_detail.${k}`, p);
  const F = (k: string) => t(`zones.zone_form.fields.${k}`);
  const yesNo = (b: boolean) => b ? D("enabled") : D("disabled");
  const n = zone.station_count;
  const base = `/admin/zones/${zone.id}`;
  const status = (s: ZoneStation) => {
    const k = s.status === "online" || s.status === "offline" ? s.status : "other";
    return (
      <StatusBadge tone={STATUS_BADGE[k] ?? "grey"}>
        {D(`assigned_stations.status.${k}`)}
      </StatusBadge>
    );
  };
  const pay = (s: ZoneStation) => {
    const k = ["paid", "due", "pending", "overdue"].includes(s.payment_status)
      ? s.payment_status
      : "unknown";
    return D(`assigned_stations.payment_status.${k}`);
  };
  const actions = (s: ZoneStation) => (
    <div className="row-actions">
      <a className="btn btn-sm btn-secondary" href={`/admin/report/station/${s.id}`}>
        {D("assigned_stations.report")}
      </a>
      <a className="btn btn-sm btn-secondary" href={`/admin/devices/station/${s.id}/data`}>
        {D("assigned_stations.hardware")}
      </a>
    </div>
  );
  const A = (k: string) => D(`assigned_stations.columns.${k}`);
  return (
    <>
      <p>
        <a href="/admin/pricing">← {D("back")}</a>
      </p>
      <div className="page-head">
        <div>
          <h1>{zone.name}</h1>
          <p className="muted" data-testid="station-count">{D("station_count", { count: n })}</p>
        </div>
        <div className="page-actions">
          <a className="btn btn-secondary" href={`${base}/edit`}>{D("edit")}</a>
          {n > 0
            ? (
              <a className="btn btn-danger" href={`${base}?delete=blocked`}>
                {D("delete")}
              </a>
            )
            : (
              <Island
                of={ConfirmSubmit}
                props={{
                  action: `${base}/delete`,
                  fields: {},
                  label: D("delete"),
                  className: "btn btn-danger",
                  title: D("delete_dialog.title"),
                  message: `${D("delete_dialog.message", { name: zone.name })} ${
                    D("delete_dialog.warning")
                  }`,
                  confirmLabel: D("delete_dialog.confirm"),
                  cancelLabel: D("delete_dialog.cancel"),
                }}
              />
            )}
        </div>
      </div>
      {blocked && (
        <section className="card alert alert-error" role="alertdialog" aria-labelledby="zd-b">
          <h2 id="zd-b">{D("delete_dialog.title")}</h2>
          <p>{D("delete_dialog.has_stations", { n })}</p>
          <a className="btn btn-secondary" href={base}>{D("delete_dialog.close")}</a>
        </section>
      )}
      <div className="zone-grid">
        <ZoneCard title={D("cards.zone_information")}>
          <Facts
            className="facts"
            rows={[
              [F("id"), String(zone.id)],
              [F("name"), zone.name],
              [F("currency"), zone.currency],
              [F("tariff_type"), t(`zones.tariff_types.${zone.tariff_type}`)],
              [F("billing_type"), t(`zones.billing_types.${zone.billing_type}`)],
              [F("updated_at"), zone.updated_at.slice(0, 10)],
            ]}
          />
        </ZoneCard>
        <ZoneCard title={D("cards.pricing_configuration")}>
          <Facts
            className="facts"
            rows={[
              [t("zones.pricing_modes.label"), configurationText(t, zone)],
              [F("enable_levels"), yesNo(zone.enable_levels)],
              [F("seasonal_tariff"), yesNo(zone.seasonal_tariff)],
              [F("industrial_tariff"), yesNo(zone.industrial_tariff)],
            ]}
          />
        </ZoneCard>
        <ZoneCard title={D("cards.billing_factors")}>
          <Facts
            className="facts"
            rows={[
              [F("base_tariff"), `${money(zone.base_tariff, zone.currency)} ${D("per_period")}`],
              [F("tax_percentage"), `${zone.tax_percentage}%`],
              ...(zone.industrial_tariff
                ? [
                  [F("low_tension_enabled"), yesNo(zone.low_tension_enabled)],
                  [F("power_factor_enabled"), yesNo(zone.power_factor_enabled)],
                  [F("distribution_price"), money(zone.distribution_price, zone.currency)],
                  [F("capacity_price"), money(zone.capacity_price, zone.currency)],
                  [F("compensation_factor_percentage"), `${zone.compensation_factor_percentage}%`],
                ] as [string, string][]
                : []),
            ]}
          />
        </ZoneCard>
        <ZoneCard title={D("cards.customer_billing")}>
          <Facts
            className="facts"
            rows={[
              [F("customer_commission"), `${zone.customer_commission}%`],
              [F("customer_fee"), money(zone.customer_fee, zone.currency)],
              [F("customer_tax"), `${zone.customer_tax}%`],
            ]}
          />
        </ZoneCard>
      </div>
      <PricingTable t={t} zone={zone} />
      <HistoryCard D={D} area="price_history" failed={history === null}>
        {history && <PriceHistoryChart t={t} history={history} />}
      </HistoryCard>
      <HistoryCard D={D} area="versions" failed={versions === null}>
        {versions && <VersionList t={t} versions={versions} />}
      </HistoryCard>
      <ZoneCard title={D("assigned_stations.title")}>
        {stations === null && (
          <div className="alert alert-error">{D("errors.load_stations_failed")}</div>
        )}
        {stations && (
          <ResponsiveList
            label={D("assigned_stations.title")}
            testId="zone-stations"
            framed={false}
            rows={stations}
            rowKey={(s) => s.id}
            rowAttrs={(s) => ({ "data-station-id": s.id })}
            empty={
              <div className="empty" data-testid="no-stations">
                <h3>{D("assigned_stations.empty_title")}</h3>
                <p className="muted">{D("assigned_stations.empty_message")}</p>
              </div>
            }
            columns={[
              {
                label: A("name"),
                primary: true,
                cell: (s) => s.name,
                sort: sortBy(t, paging, "name", A("name")),
              },
              {
                label: A("serial_number"),
                className: "mono nowrap",
                cell: (s) => s.serial_number,
                sort: sortBy(t, paging, "serial", A("serial_number")),
              },
              {
                label: A("units"),
                sort: sortBy(t, paging, "units", A("units")),
                cell: (s) => D("assigned_stations.units_count", { count: s.units_count }),
              },
              { label: A("status"), aside: true, cell: status },
              { label: A("payment_status"), cell: pay },
              { label: A("actions"), actions: true, cell: actions },
            ]}
          />
        )}
        {stations && paging && (
          <PagerOf t={t} label={D("assigned_stations.title")} paging={paging} />
        )}
      </ZoneCard>
    </>
  );
}

/** The 'Zone not found' page with Go Back to /admin/pricing. */
export function ZoneNotFound({ t }: { t: Translate }) {
  return (
    <NotFound
      title={t("zones.zone_detail.errors.not_found")}
      back={{ href: "/admin/pricing", label: t("zones.zone_detail.errors.go_back"), primary: true }}
      testId="zone-not-found"
    />
  );
}

/** The zone form when its zone could not be read: "Error loading data: {message}", Back. */
export function ZoneLoadError({ t, message }: { t: Translate; message: string }) {
  return (
    <NotFound
      title={t("zones.zone_form.title_edit")}
      message={t("zones.zone_form.errors.load_error", { message })}
      back={{ href: "/admin/pricing", label: t("zones.zone_form.back"), primary: true }}
      testId="zone-load-error"
    />
  );
}
