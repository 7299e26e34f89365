/**
 * The zone form pages: `/admin/zones/create` and `/admin/zones/new` (the same form) and
 * `/admin/zones/{id}/edit`. A post with `action` `add_level`, `remove_level:N` or `mode`
 * re-renders the form with the change (the no-JavaScript path of the ZoneLevels island);
 * any other post validates with `core/zone.ts` and saves, or shows the errors inline.
 */
import { loaded, loadFailedPage } from "./_load_failed.tsx";
import { acting } from "./_audit.ts";
import { Hono } from "hono";
import { z } from "zod";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { idParam, readForm, translateErrors } from "./_http.ts";
import { renderPage } from "./_page.tsx";
import {
  defaultZone,
  LEVEL_NAMES,
  MAX_LEVELS,
  type Zone,
  zoneBodyFromForm,
  zoneFormSchema,
} from "../core/zone.ts";
import { CFE_PRESETS, DAC_REGIONS, type PresetFill, presetFill } from "../core/cfe_presets.ts";
import { pricingMode } from "../core/tariff.ts";
import { addZone, editZone, findZone } from "../services/zones.ts";
import { formChecked, pageText, queryOf } from "./_validate.ts";
import { Refusal } from "../services/refusal.ts";
import { ZoneForm, type ZoneFormValues } from "../components/zones/ZoneForm.tsx";
import {
  addLevel,
  emptyPrices,
  FORM_FIRST_THRESHOLD,
  isSeasonal,
  type LevelRow,
  type Mode,
  removeLevel,
  seasonalCopy,
} from "../core/zone_levels.ts";
import { ZoneNotFound } from "../components/zones/ZoneDetail.tsx";
import { decimalOrEmpty } from "../core/decimal_input.ts";
import { businessBody, businessFormPosted, businessFormValues } from "../core/zone_business.ts";

type Ctx = Context<UserEnv>;
type Form = Record<string, string | string[]>;

const MODES: Mode[] = ["basic", "tiered", "seasonal", "seasonal_tiered"];
const NUM_FIELDS = [
  "base_tariff",
  "tax_percentage",
  "customer_commission",
  "customer_fee",
  "customer_tax",
  "distribution_price",
  "capacity_price",
  "compensation_factor_percentage",
] as const;
const BOOL_FIELDS = [
  "industrial_tariff",
  "low_tension_enabled",
  "power_factor_enabled",
  "distribution_enabled",
  "capacity_enabled",
  "compensation_factor_enabled",
] as const;

const str = (f: Form, k: string) => {
  const v = f[k];
  return (Array.isArray(v) ? v[0] : v) ?? "";
};

/** Number of levels a zone uses in one list: the first always, later ones while non-zero. */
function levelCount(zone: Zone, prefix: string): number {
  const r = zone as unknown as Record<string, number>;
  let n = LEVEL_NAMES.length;
  while (n > 1) {
    const name = LEVEL_NAMES[n - 1];
    const price = r[`${prefix}price_${name}`];
    if (price || Number.isNaN(price) || r[`${prefix}price_${name}_threshold`]) break;
    n--;
  }
  return n;
}

/** An addition's text: empty when it is off (absent or 0). */
const opt = (n: number | undefined) => n ? String(n) : "";

/** The form's values for a stored zone (or the defaults). */
function valuesFromZone(zone: Zone): ZoneFormValues {
  const r = zone as unknown as Record<string, number>;
  // A preset's unconfirmed price (NaN) is an empty field.
  const s = (k: string) => Number.isNaN(r[k]) ? "" : String(r[k] ?? 0);
  const n = zone.enable_levels
    ? Math.max(levelCount(zone, ""), levelCount(zone, "summer_"), levelCount(zone, "winter_"))
    : 1;
  const levels: LevelRow[] = LEVEL_NAMES.slice(0, n).map((name) => ({
    price: s(`price_${name}`),
    threshold: s(`price_${name}_threshold`),
    summer_price: s(`summer_price_${name}`),
    summer_threshold: s(`summer_price_${name}_threshold`),
    winter_price: s(`winter_price_${name}`),
    winter_threshold: s(`winter_price_${name}_threshold`),
  }));
  return {
    extras: {
      minimum_monthly_kwh: opt(zone.minimum_monthly_kwh),
      fixed_charge_monthly: opt(zone.fixed_charge_monthly),
      dac_limit_kwh: opt(zone.dac_limit_kwh),
      bimonthly_double_blocks: zone.bimonthly_double_blocks === true,
      tariff_preset: zone.tariff_preset ?? "",
      price_change: "correct",
      effective_from: "",
    },
    business: businessFormValues(zone),
    name: zone.name,
    currency: zone.currency,
    tariff_type: zone.tariff_type,
    billing_type: zone.billing_type,
    ...Object.fromEntries(NUM_FIELDS.map((k) => [k, s(k)])),
    ...Object.fromEntries(BOOL_FIELDS.map((k) => [k, zone[k]])),
    pricing: {
      mode: pricingMode(zone),
      price_low: s("price_low"),
      summer_price_low: s("summer_price_low"),
      winter_price_low: s("winter_price_low"),
      winter_start_month: s("winter_start_month"),
      winter_start_day: s("winter_start_day"),
      winter_end_month: s("winter_end_month"),
      winter_end_day: s("winter_end_day"),
      levels,
    },
  } as ZoneFormValues;
}

/** The form's values from a posted form. */
function valuesFromForm(f: Form): ZoneFormValues {
  const levels: LevelRow[] = [];
  for (let i = 0; i < MAX_LEVELS + 1 && `level_price_${i}` in f; i++) {
    const l = (k: string) => str(f, `level_${k}_${i}`);
    levels.push({
      price: l("price"),
      threshold: l("threshold"),
      summer_price: `level_summer_price_${i}` in f ? l("summer_price") : "0",
      summer_threshold: l("summer_threshold") || l("threshold"),
      winter_price: `level_winter_price_${i}` in f ? l("winter_price") : "0",
      winter_threshold: l("winter_threshold") || l("threshold"),
    });
  }
  if (levels.length === 0) {
    levels.push({
      price: "0",
      threshold: "150",
      summer_price: "0",
      summer_threshold: "150",
      winter_price: "0",
      winter_threshold: "150",
    });
  }
  const modeQ = str(f, "pricing_mode") as Mode;
  const mode = MODES.includes(modeQ) ? modeQ : "basic";
  const or = (k: string, d: string) => k in f ? str(f, k) : d;
  return {
    extras: {
      minimum_monthly_kwh: str(f, "minimum_monthly_kwh"),
      fixed_charge_monthly: str(f, "fixed_charge_monthly"),
      dac_limit_kwh: str(f, "dac_limit_kwh"),
      bimonthly_double_blocks: str(f, "bimonthly_double_blocks") === "on",
      tariff_preset: str(f, "tariff_preset"),
      price_change: str(f, "price_change") === "new" ? "new" : "correct",
      effective_from: str(f, "effective_from"),
    },
    business: businessFormPosted((k) => str(f, k)),
    name: str(f, "name"),
    currency: str(f, "currency"),
    tariff_type: str(f, "tariff_type"),
    billing_type: str(f, "billing_type"),
    ...Object.fromEntries(NUM_FIELDS.map((k) => [k, str(f, k)])),
    ...Object.fromEntries(BOOL_FIELDS.map((k) => [k, str(f, k) === "on"])),
    pricing: {
      mode,
      price_low: or("price_low", "0"),
      summer_price_low: or("summer_price_low", "0"),
      winter_price_low: or("winter_price_low", "0"),
      winter_start_month: or("winter_start_month", "11"),
      winter_start_day: or("winter_start_day", "1"),
      winter_end_month: or("winter_end_month", "3"),
      winter_end_day: or("winter_end_day", "31"),
      levels,
    },
  } as ZoneFormValues;
}

/** A number from a text field (a decimal comma read): empty is left out, junk is NaN. */
const toNum = decimalOrEmpty;

/** The zone body of the form's values, for {@link parseZone}. */
function bodyFromValues(v: ZoneFormValues): Record<string, unknown> {
  const p = v.pricing;
  const seasonal = isSeasonal(p.mode);
  const tiered = p.mode === "tiered" || p.mode === "seasonal_tiered";
  const list = (price: keyof LevelRow, threshold: keyof LevelRow) =>
    p.levels.map((l) => ({ price: toNum(l[price]) ?? 0, threshold: toNum(l[threshold]) ?? 0 }));
  const body: Record<string, unknown> = {
    name: v.name,
    currency: v.currency || undefined,
    tariff_type: v.tariff_type || undefined,
    billing_type: v.billing_type || undefined,
    enable_levels: tiered,
    seasonal_tariff: seasonal,
    ...Object.fromEntries(NUM_FIELDS.map((k) => [k, toNum(v[k])])),
    ...Object.fromEntries(BOOL_FIELDS.map((k) => [k, v[k]])),
    price_low: tiered ? undefined : p.mode === "basic" ? toNum(p.price_low) : 0,
    summer_price_low: seasonal && !tiered ? toNum(p.summer_price_low) : undefined,
    winter_price_low: seasonal && !tiered ? toNum(p.winter_price_low) : undefined,
    minimum_monthly_kwh: toNum(v.extras.minimum_monthly_kwh),
    fixed_charge_monthly: toNum(v.extras.fixed_charge_monthly),
    dac_limit_kwh: toNum(v.extras.dac_limit_kwh),
    bimonthly_double_blocks: v.extras.bimonthly_double_blocks || undefined,
    tariff_preset: v.extras.tariff_preset || undefined,
    // A new version needs its month: an empty one is refused by the schema.
    effective_from: v.extras.price_change === "new" ? v.extras.effective_from.trim() : undefined,
    ...businessBody(v.business, toNum),
  };
  if (tiered) body.levels = list("price", "threshold");
  if (tiered && seasonal) {
    body.summer_levels = list("summer_price", "summer_threshold");
    body.winter_levels = list("winter_price", "winter_threshold");
  }
  if (seasonal) {
    for (
      const k of ["winter_start_month", "winter_start_day", "winter_end_month", "winter_end_day"]
    ) {
      body[k] = toNum(p[k as "winter_start_month"]);
    }
  }
  return body;
}

/**
 * The blank form's query: a known CFE preset, the locality's region and its summer's first
 * month; anything else is as if absent (the blank form, the preset's defaults).
 */
const PRESET_QUERY = z.object({
  preset: z.enum(CFE_PRESETS).optional().catch(undefined),
  region: z.enum(DAC_REGIONS).optional().catch(undefined),
  summer_start_month: pageText.transform((v) => Number(v) || undefined),
});

/** The 'Zone not found' page (404). */
export function zoneNotFound(c: Ctx, deps: Deps) {
  const t = c.var.t;
  return renderPage(c, deps, t("zones.zone_detail.errors.not_found"), ZoneNotFound, {}, 404);
}

/** Routes of the zone form. */
export function zoneFormRoutes(deps: Deps): Hono<UserEnv> {
  const app = new Hono<UserEnv>();

  const render = (
    c: Ctx,
    id: number | null,
    values: ZoneFormValues,
    errors: Record<string, string> = {},
    error?: string,
    status: 200 | 400 = 200,
    preset: { id: string; fill: PresetFill } | null = null,
  ) => {
    const t = c.var.t;
    return renderPage(
      c,
      deps,
      t(`zones.zone_form.${id === null ? "title_create" : "title_edit"}`),
      ZoneForm,
      { id, values, errors, error, preset },
      status,
    );
  };

  const post = async (c: Ctx) => {
    const t = c.var.t;
    const raw = c.req.param("id");
    const id = raw === undefined ? null : idParam(raw);
    if (raw !== undefined && (id === null || !await findZone(deps, id))) {
      return zoneNotFound(c, deps);
    }
    const form = await readForm(c);
    let values = valuesFromForm(form);
    const action = str(form, "action");
    const prevMode = str(form, "prev_mode") as Mode;
    if (isSeasonal(values.pricing.mode) && MODES.includes(prevMode) && !isSeasonal(prevMode)) {
      values = { ...values, pricing: seasonalCopy(values.pricing) };
    }
    if (action === "mode") return render(c, id, values);
    if (action === "add_level") {
      values.pricing.levels = addLevel(values.pricing.levels);
      return render(c, id, values);
    }
    if (action.startsWith("remove_level:")) {
      values.pricing.levels = removeLevel(values.pricing.levels, Number(action.slice(13)));
      return render(c, id, values);
    }
    const parsed = formChecked(zoneFormSchema, bodyFromValues(values));
    // A price left empty is refused (not saved as 0); a zone filled from a preset says why.
    const missing = emptyPrices(values.pricing);
    if (parsed instanceof Refusal || missing.length > 0) {
      const errors = parsed instanceof Refusal ? { ...parsed.fields } : {};
      const why = values.extras.tariff_preset
        ? "zones.zone_form.validation.preset_price_missing"
        : "validation.price_required";
      for (const k of missing) errors[k] = why;
      return render(
        c,
        id,
        values,
        translateErrors(c, errors),
        t("zones.zone_form.fix_errors"),
        400,
      );
    }
    if (id === null) {
      await addZone(acting(c, deps), zoneBodyFromForm(parsed));
      return c.redirect("/admin/pricing?done=created", 303);
    }
    if (!await editZone(acting(c, deps), id, zoneBodyFromForm(parsed), parsed.effective_from)) {
      return zoneNotFound(c, deps);
    }
    return c.redirect("/admin/pricing?done=updated", 303);
  };

  /** The blank form, or the form filled from `?preset=` (with the locality's options). */
  const blank = (c: Ctx) => {
    const { preset: id, region, summer_start_month } = queryOf(c, PRESET_QUERY);
    if (!id) {
      const values = valuesFromZone(defaultZone());
      const first = String(FORM_FIRST_THRESHOLD);
      values.pricing.levels = values.pricing.levels.map((l, i) =>
        i === 0 ? { ...l, threshold: first, summer_threshold: first, winter_threshold: first } : l
      );
      return render(c, null, values);
    }
    const fill = presetFill(id, { summer_start_month, region });
    const values = valuesFromZone(zoneBodyFromForm({ name: "", ...fill.form }));
    // Each price the reference could not confirm is marked on its own field.
    const missing = c.var.t("zones.zone_form.preset.missing_price");
    const marks = Object.fromEntries(fill.missing.map((k) => [k, missing]));
    return render(c, null, values, marks, undefined, 200, { id, fill });
  };
  app.get("/zones/create", blank);
  app.get("/zones/new", blank);
  app.post("/zones/create", post);
  app.post("/zones/new", post);
  app.get("/zones/:id/edit", async (c) => {
    const id = idParam(c.req.param("id"));
    const got = await loaded(
      deps,
      "zone form",
      async () => id === null ? null : await findZone(deps, id),
    );
    if (!got.ok) {
      const t = c.var.t;
      return loadFailedPage(
        c,
        deps,
        t("zones.zone_form.title_edit"),
        t("zones.zone_form.errors.load_error", { message: t("errors.something_went_wrong_text") }),
        { href: "/admin/pricing", label: t("zones.zone_form.back") },
      );
    }
    const zone = got.value;
    if (!zone) return zoneNotFound(c, deps);
    return render(c, zone.id, valuesFromZone(zone));
  });
  app.post("/zones/:id/edit", post);
  return app;
}
