/**
 * The zone form (spec 001 section 2): Create Zone or Edit Zone, with four sections (Zone
 * Information, Pricing Configuration, Customer Billing Configuration, Additional Pricing
 * Factors). The pricing levels are the ZoneLevels island; the rest are plain fields.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { BILLING_TYPES, CURRENCIES, TARIFF_TYPES } from "../../core/zone.ts";
import { Island } from "../render.tsx";
import ZoneLevels from "../../islands/ZoneLevels.tsx";
import type { ZoneLevelsValues } from "../../core/zone_levels.ts";
import { errAttrs, Field, SelectField } from "../Field.tsx";
import { Card, FormError, FormHead } from "../kit/mod.ts";
import { NumberField } from "./NumberField.tsx";
import type { PresetFill } from "../../core/cfe_presets.ts";
import {
  PresetNote,
  PresetPicker,
  PriceChange,
  RealTariffFields,
  type TariffExtrasValues,
} from "./TariffExtras.tsx";
import { BusinessTariffFields } from "./BusinessTariffFields.tsx";
import type { BusinessFormValues } from "../../core/zone_business.ts";

/** Text fields of the form, as entered. */
export interface ZoneFormValues {
  name: string;
  currency: string;
  tariff_type: string;
  billing_type: string;
  base_tariff: string;
  tax_percentage: string;
  customer_commission: string;
  customer_fee: string;
  customer_tax: string;
  industrial_tariff: boolean;
  low_tension_enabled: boolean;
  power_factor_enabled: boolean;
  distribution_enabled: boolean;
  distribution_price: string;
  capacity_enabled: boolean;
  capacity_price: string;
  compensation_factor_enabled: boolean;
  compensation_factor_percentage: string;
  pricing: ZoneLevelsValues;
  extras: TariffExtrasValues;
  business: BusinessFormValues;
}

/** Props of {@link ZoneForm}. */
interface ZoneFormProps {
  t: Translate;
  id: number | null;
  values: ZoneFormValues;
  /** Translated errors by field. */
  errors: Record<string, string>;
  error?: string;
  /** The preset the form was filled from, on the create page. */
  preset?: { id: string; fill: PresetFill } | null;
}

type NumKey =
  | "base_tariff"
  | "tax_percentage"
  | "customer_commission"
  | "customer_fee"
  | "customer_tax"
  | "distribution_price"
  | "capacity_price"
  | "compensation_factor_percentage";

type BoolKey =
  | "industrial_tariff"
  | "low_tension_enabled"
  | "power_factor_enabled"
  | "distribution_enabled"
  | "capacity_enabled"
  | "compensation_factor_enabled";

/** The labels the island needs. */
function islandLabels(t: Translate): Record<string, string> {
  const F = (k: string) => t(`zones.zone_form.${k}`);
  const out: Record<string, string> = {
    mode: t("zones.pricing_modes.label"),
    apply_mode: F("apply_mode"),
    seasonal_copy: F("hints.seasonal_copy"),
    price_per_kwh: F("fields.price_per_kwh"),
    summer_price: F("fields.summer_price_low"),
    winter_price: F("fields.winter_price_low"),
    pricing_levels: F("sections.pricing_levels"),
    col_level: F("level_columns.name"),
    col_price: F("level_columns.price"),
    col_threshold: F("level_columns.threshold"),
    col_summer_price: F("level_columns.summer_price"),
    col_summer_threshold: F("level_columns.summer_threshold"),
    col_winter_price: F("level_columns.winter_price"),
    col_winter_threshold: F("level_columns.winter_threshold"),
    col_actions: F("level_columns.actions"),
    first_level_locked: F("first_level_locked"),
    remove_level: F("remove_level"),
    add_level: F("add_level"),
    threshold_hint: F("hints.threshold"),
    winter_period: F("sections.winter_period"),
    winter_start_month: F("fields.winter_start_month"),
    winter_start_day: F("fields.winter_start_day"),
    winter_end_month: F("fields.winter_end_month"),
    winter_end_day: F("fields.winter_end_day"),
    summer_rest: F("summer_rest_of_year"),
  };
  for (const m of ["basic", "tiered", "seasonal", "seasonal_tiered"]) {
    out[`mode_${m}`] = t(`zones.pricing_modes.${m}`);
    out[`mode_${m}_description`] = t(`zones.pricing_modes.${m}_description`);
  }
  ["low", "middle", "high", "surplus"].forEach((l, i) => {
    out[`level_${i}`] = t(`zones.levels.${l}`);
  });
  return out;
}

/** The form. */
export function ZoneForm({ t, id, values: v, errors: fe, error, preset }: ZoneFormProps) {
  const editing = id !== null;
  const F = (k: string) => t(`zones.zone_form.${k}`);
  const num = (key: NumKey, hint?: string) => (
    <NumberField name={key} label={F(`fields.${key}`)} value={v[key]} hint={hint} error={fe[key]} />
  );
  const check = (key: BoolKey, hint?: string) => (
    <div className="field field-check">
      <label>
        <input type="checkbox" name={key} defaultChecked={v[key]} /> {F(`fields.${key}`)}
      </label>
      {hint && <p className="hint">{hint}</p>}
    </div>
  );
  const select = (key: "currency" | "tariff_type" | "billing_type", options: string[]) => (
    <SelectField
      id={key}
      label={F(`fields.${key}`)}
      error={fe[key]}
      value={v[key]}
      options={options.map((o) => ({
        value: o,
        label: key === "currency"
          ? t(`zones.currencies.${o.toLowerCase()}`)
          : t(`zones.${key}s.${o}`),
      }))}
    />
  );
  return (
    <>
      <FormHead
        title={F(editing ? "title_edit" : "title_create")}
        subtitle={F(editing ? "subtitle_edit" : "subtitle_create")}
        back="/admin/pricing"
        backLabel={F("back")}
      />
      <FormError testId="form-error">{error}</FormError>
      {!editing && <PresetPicker t={t} chosen={preset?.id ?? "cfe_1"} />}
      {preset && <PresetNote t={t} fill={preset.fill} id={preset.id} />}
      <form
        method="post"
        action={editing ? `/admin/zones/${id}/edit` : "/admin/zones/create"}
        className="form zone-form"
        noValidate
        data-testid="zone-form"
      >
        <button
          type="submit"
          name="action"
          value="save"
          className="visually-hidden"
          tabIndex={-1}
          aria-hidden="true"
        >
          {F(editing ? "update" : "create")}
        </button>
        <Card title={F("sections.zone_information")} headingId="zf-info">
          <div className="form-grid">
            <Field id="name" label={F("fields.name")} hint={F("hints.name")} error={fe.name}>
              <input
                id="name"
                name="name"
                type="text"
                maxLength={200}
                autoComplete="off"
                defaultValue={v.name}
                placeholder={F("placeholders.name")}
                aria-required
                {...errAttrs("name", fe.name)}
              />
            </Field>
            {select("currency", [...CURRENCIES])}
            {select("tariff_type", [...TARIFF_TYPES])}
            {select("billing_type", [...BILLING_TYPES])}
          </div>
        </Card>
        <Card title={F("sections.pricing_configuration")} headingId="zf-pricing">
          <Island
            of={ZoneLevels}
            props={{ values: v.pricing, errors: fe, labels: islandLabels(t) }}
          />
          <div className="form-grid">
            {num("base_tariff", F("hints.base_tariff"))}
            {num("tax_percentage", F("hints.percent"))}
          </div>
        </Card>
        <RealTariffFields t={t} v={v.extras} fe={fe} />
        <BusinessTariffFields t={t} v={v.business} fe={fe} />
        {editing && <PriceChange t={t} v={v.extras} fe={fe} />}
        <Card title={F("sections.customer_billing")} headingId="zf-customer">
          <div className="form-grid">
            {num("customer_commission", F("hints.customer_commission"))}
            {num("customer_fee", F("hints.customer_fee"))}
            {num("customer_tax", F("hints.customer_tax"))}
          </div>
        </Card>
        <Card title={F("sections.additional_factors")} headingId="zf-extra">
          {check("industrial_tariff", F("hints.industrial_tariff"))}
          <fieldset>
            <legend>{F("sections.industrial_components")}</legend>
            <div className="form-grid">
              {check("low_tension_enabled")}
              {check("power_factor_enabled")}
              {check("distribution_enabled")}
              {num("distribution_price")}
              {check("capacity_enabled")}
              {num("capacity_price")}
              {check("compensation_factor_enabled")}
              {num("compensation_factor_percentage", F("hints.percent"))}
            </div>
          </fieldset>
        </Card>
        <div className="form-actions">
          <a className="btn btn-secondary" href="/admin/pricing">{F("cancel")}</a>
          <button type="submit" name="action" value="save" className="btn" data-testid="save-zone">
            {F(editing ? "update" : "create")}
          </button>
        </div>
      </form>
    </>
  );
}
