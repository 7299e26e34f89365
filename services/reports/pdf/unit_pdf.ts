/**
 * The unit bill report as PDF: header (portal, title, period, station, unit, tenant),
 * consumption and its tier lines, base tariff, compensation, tax base, tax, total, currency,
 * due date, payment status, the estimation or recalculation note with its reason, the season
 * applied and the zone prices the bill was computed with.
 */
import { isPaymentStatus } from "../../../core/payment.ts";
import type { Language } from "../../../core/roles.ts";
import type { Zone } from "../../../core/zone.ts";
import { buildTiers, pricingMode } from "../../../core/tariff.ts";
import type { StoredDevice } from "../../../core/devices.ts";
import type { StoredUnitBill } from "../../../db/bills.ts";
import type { Translate } from "../../platform/i18n.ts";
import { factLines } from "../../../core/reports.ts";
import { formatter } from "../../../core/format.ts";
import { openReport } from "./report_head.ts";
import { BANDS } from "../../../core/tou.ts";
import type { BusinessZoneFields } from "../../../core/zone_business.ts";

/** What {@link renderUnitPdf} draws. */
interface UnitPdfInput {
  t: Translate;
  lang: Language;
  portal: string;
  station: StoredDevice;
  unit: { id: string; name: string };
  tenant: string | null;
  bill: StoredUnitBill;
  /** The zone the bill was priced with (snapshot), or null. */
  zone: (Zone & BusinessZoneFields) | null;
}

/** A tier's level worded: a time band (a business bill's) or a price level. */
function levelName(t: Translate, level: string): string {
  return (BANDS as readonly string[]).includes(level)
    ? t(`business_tariff.bill.bands.${level}`)
    : t(`reports.unit_report.price_table.${level}`);
}

type Writer = Awaited<ReturnType<typeof openReport>>["w"];

/** A business zone's prices: each band's $/kWh, distribution and capacity $/kW. */
function businessPrices(
  w: Writer,
  t: Translate,
  lang: Language,
  zone: Zone & BusinessZoneFields,
  P: (k: string, p?: Record<string, string | number>) => string,
) {
  const f = formatter(lang);
  const band = {
    base: zone.price_base,
    intermedia: zone.price_intermedia,
    punta: zone.price_punta,
  };
  w.table(
    [
      { header: t("business_tariff.bill.band"), width: 6 },
      { header: P("price"), width: 4, align: "right" },
    ],
    BANDS.map((b) => [levelName(t, b), band[b] === undefined ? "-" : f.number(band[b], 4)]),
  );
  if (zone.distribution_enabled) {
    w.line(
      t("business_tariff.bill.distribution_price"),
      `${f.price(zone.distribution_price, zone.currency)}/kW`,
    );
  }
  if (zone.capacity_enabled) {
    w.line(
      t("business_tariff.bill.capacity_price"),
      `${f.price(zone.capacity_price, zone.currency)}/kW`,
    );
  }
}

/** Draws the unit report; the PDF bytes. */
export async function renderUnitPdf(input: UnitPdfInput): Promise<Uint8Array> {
  const { t, lang, bill, zone } = input;
  const { w, P, money } = await openReport(input, "unit_title");
  w.line(P("unit"), `${input.unit.name} (${input.unit.id})`);
  w.line(P("tenant"), input.tenant ?? P("no_tenant"));

  const details = bill.calculation_details;
  w.heading(P("consumption"));
  w.line(P("energy"), `${formatter(lang).number(bill.energy_consumption)} kWh`, true);
  if (details.tiers.length > 0) {
    w.table(
      [
        // A business bill's rows are CFE's time bands ("periodo"), not consumption levels.
        { header: details.business ? t("business_tariff.bill.band") : P("level"), width: 3 },
        { header: "kWh", width: 2, align: "right" },
        { header: P("price"), width: 2, align: "right" },
        { header: P("cost"), width: 3, align: "right" },
      ],
      details.tiers.map((tier) => [
        tier.level ? levelName(t, tier.level) : tier.description,
        formatter(lang).number(tier.kwh, 3),
        formatter(lang).number(tier.price, 4),
        money(tier.tier_cost),
      ]),
    );
  }

  w.heading(P("charges"));
  const taxBase = bill.base_tariff + bill.energy_cost + bill.compensation_cost;
  w.line(P("base_tariff"), money(bill.base_tariff));
  w.line(P("energy_cost"), money(bill.energy_cost));
  // A business bill's "compensation" is its demand, low-tension and power factor charges.
  w.line(
    details.business ? t("business_tariff.bill.demand_charges") : P("compensation"),
    money(bill.compensation_cost),
  );
  w.line(P("tax_base"), money(taxBase));
  w.line(
    zone ? P("tax_rate", { rate: formatter(lang).number(zone.tax_percentage, 1) }) : P("tax"),
    money(bill.tax_cost),
  );
  w.line(P("total"), money(bill.total_cost), true);
  w.line(P("currency"), bill.currency);
  w.line(P("due_date"), bill.payment_due_date || "-");
  const pay = isPaymentStatus(bill.payment_status) ? bill.payment_status : "unknown";
  w.line(
    P("payment_status"),
    t(`billing.payment_status.${pay}`) +
      (bill.payment_date ? ` (${bill.payment_date.slice(0, 10)})` : ""),
  );

  const method = (m: string) => t(`billing.recalculation.methods.${m}.name`);
  const notes: string[] = [];
  if (bill.recalculation_method) {
    notes.push(P("recalculated_note", { method: method(bill.recalculation_method) }));
  } else if (bill.is_estimation) {
    notes.push(
      P("estimated_note", { method: method(bill.estimation_method ?? "method_3_zone_average") }),
    );
  }
  if (bill.override_reason) notes.push(P("reason", { reason: bill.override_reason }));
  if (details.season) notes.push(P(`season_${details.season}`));
  notes.push(...factLines(t, bill.calculation_details, money).map((f) => f.text));
  if (notes.length > 0) {
    w.heading(P("notes"));
    for (const n of notes) w.paragraph(n);
  }

  if (zone) {
    w.heading(P("zone_prices", { zone: zone.name }));
    w.line(
      P("pricing_mode"),
      details.business
        ? t("business_tariff.form.title")
        : t(`reports.pdf.modes.${pricingMode(zone)}`),
    );
    w.line(P("base_tariff"), formatter(lang).price(zone.base_tariff, zone.currency));
    w.line(P("tax"), `${formatter(lang).number(zone.tax_percentage, 1)} %`);
    const seasons = details.business
      ? []
      : zone.seasonal_tariff
      ? (["winter", "summer"] as const)
      : [null];
    if (details.business) businessPrices(w, t, lang, zone, P);
    for (const s of seasons) {
      const tiers = buildTiers(zone, s);
      w.table(
        [
          { header: s ? P(`season_name_${s}`) : P("level"), width: 4 },
          { header: P("range"), width: 4 },
          { header: P("price"), width: 2, align: "right" },
        ],
        tiers.map((tier) => {
          const from = Number(tier.from.n) / 10 ** tier.from.s;
          const to = tier.to ? Number(tier.to.n) / 10 ** tier.to.s : null;
          return [
            t(`reports.unit_report.price_table.${tier.level}`),
            to === null ? P("range_open", { from }) : P("range_closed", { from, to }),
            formatter(lang).number(tier.price, 4),
          ];
        }),
      );
    }
    if (zone.industrial_tariff && zone.compensation_factor_enabled) {
      w.line(
        P("compensation_factor"),
        `${formatter(lang).number(zone.compensation_factor_percentage, 1)} %`,
      );
    }
  }
  w.gap(10);
  w.paragraph(P("generated", { portal: input.portal }), 8);
  return w.save();
}
