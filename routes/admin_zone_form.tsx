/**
 * The zone form pages: `/admin/zones/create` and `/admin/zones/new` (the same form) and
 * `/admin/zones/{id}/edit`. A post with `action` `add_level`, `remove_level:N` or `mode`
 * re-renders the form with the change (the no-JavaScript path of the ZoneLevels island);
 * any other post validates with `core/zone.ts` and saves, or shows the errors inline.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { idParam, readForm, translateErrors } from "./_http.ts";
import { appPage } from "./_page.tsx";
import { defaultZone, LEVEL_NAMES, MAX_LEVELS, type Zone } from "../core/zone.ts";
import { pricingMode } from "../core/tariff.ts";
import { addZone, editZone, findZone, parseZone } from "../services/zones.ts";
import { ZoneForm, type ZoneFormValues } from "../components/zones/ZoneForm.tsx";
import {
  addLevel,
  isSeasonal,
  type LevelRow,
  type Mode,
  removeLevel,
  seasonalCopy,
} from "../core/zone_levels.ts";
import { ZoneNotFound } from "../components/zones/ZoneDetail.tsx";

type Ctx = Context<AppEnv>;
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
    if (r[`${prefix}price_${name}`] || r[`${prefix}price_${name}_threshold`]) break;
    n--;
  }
  return n;
}

/** The form's values for a stored zone (or the defaults). */
export function valuesFromZone(zone: Zone): ZoneFormValues {
  const r = zone as unknown as Record<string, number>;
  const s = (k: string) => String(r[k] ?? 0);
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
export function valuesFromForm(f: Form): ZoneFormValues {
  const levels: LevelRow[] = [];
  for (let i = 0; i < MAX_LEVELS + 1 && `level_price_${i}` in f; i++) {
    const l = (k: string) => str(f, `level_${k}_${i}`);
    levels.push({
      price: l("price"),
      threshold: l("threshold"),
      summer_price: l("summer_price") || "0",
      summer_threshold: l("summer_threshold") || l("threshold"),
      winter_price: l("winter_price") || "0",
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

/** A number from a text field: empty is left out (the default applies), junk is NaN. */
const toNum = (s: string) => s.trim() === "" ? undefined : Number(s);

/** The zone body of the form's values, for {@link parseZone}. */
export function bodyFromValues(v: ZoneFormValues): Record<string, unknown> {
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

/** The 'Zone not found' page (404). */
export function zoneNotFound(c: Ctx, deps: Deps) {
  const t = c.var.t;
  return appPage(
    c,
    deps,
    t("zones.zone_detail.errors.not_found"),
    <ZoneNotFound t={t} />,
    404,
  );
}

/** Routes of the zone form. */
export function zoneFormRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  const render = (
    c: Ctx,
    id: number | null,
    values: ZoneFormValues,
    errors: Record<string, string> = {},
    error?: string,
    status: 200 | 400 = 200,
  ) => {
    const t = c.var.t;
    return appPage(
      c,
      deps,
      t(`zones.zone_form.${id === null ? "title_create" : "title_edit"}`),
      <ZoneForm t={t} id={id} values={values} errors={errors} error={error} />,
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
    const parsed = parseZone(bodyFromValues(values));
    if (!parsed.ok) {
      return render(
        c,
        id,
        values,
        translateErrors(c, parsed.errors),
        t("zones.zone_form.fix_errors"),
        400,
      );
    }
    if (id === null) {
      await addZone(deps, parsed.zone);
      return c.redirect("/admin/pricing?done=created", 303);
    }
    if (!await editZone(deps, id, parsed.zone)) return zoneNotFound(c, deps);
    return c.redirect("/admin/pricing?done=updated", 303);
  };

  const blank = (c: Ctx) => render(c, null, valuesFromZone(defaultZone()));
  app.get("/admin/zones/create", blank);
  app.get("/admin/zones/new", blank);
  app.post("/admin/zones/create", post);
  app.post("/admin/zones/new", post);
  app.get("/admin/zones/:id/edit", async (c) => {
    const id = idParam(c.req.param("id"));
    const zone = id === null ? null : await findZone(deps, id);
    if (!zone) return zoneNotFound(c, deps);
    return render(c, zone.id, valuesFromZone(zone as unknown as Zone));
  });
  app.post("/admin/zones/:id/edit", post);
  return app;
}
