/**
 * The zone form's parts for real tariffs (issue 17): the CFE preset picker (a GET form, so it
 * works without JavaScript), the note of a filled preset, the additions (minimum consumption,
 * fixed charge, high-consumption limit, doubled bimonthly blocks) and, when editing, whether the
 * prices correct the current version or start a new one from a month.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { CFE_PRESETS, DAC_REGIONS, type PresetFill, presetFill } from "../../core/cfe_presets.ts";
import { VERSION_MONTHS } from "../../core/zone.ts";
import { TextField } from "../Field.tsx";
import { NumberField } from "./NumberField.tsx";
import { Card } from "../kit/mod.ts";

/** The additions' texts as entered, and the price change choice. */
export interface TariffExtrasValues {
  minimum_monthly_kwh: string;
  fixed_charge_monthly: string;
  dac_limit_kwh: string;
  bimonthly_double_blocks: boolean;
  tariff_preset: string;
  /** "correct" the version in force, or a "new" version from `effective_from` (`YYYY-MM`). */
  price_change: "correct" | "new";
  effective_from: string;
}

const P = (t: Translate, k: string, p?: Record<string, string | number>) =>
  t(`zones.zone_form.preset.${k}`, p);

/** The preset picker: a preset, the locality's first summer month and the DAC region. */
export function PresetPicker({ t, chosen }: { t: Translate; chosen: string }) {
  return (
    <form method="get" action="/admin/zones/create" className="card form" data-testid="preset-form">
      <h2>{P(t, "title")}</h2>
      <p className="hint">{P(t, "hint")}</p>
      <div className="form-grid">
        <div className="field">
          <label htmlFor="preset">{P(t, "label")}</label>
          <select id="preset" name="preset" defaultValue={chosen}>
            {CFE_PRESETS.map((id) => {
              const date = presetFill(id).prices_date;
              const name = P(t, `names.${id}`);
              return (
                <option key={id} value={id}>
                  {date ? P(t, "option_dated", { name, date }) : P(t, "option_undated", { name })}
                </option>
              );
            })}
          </select>
        </div>
        <div className="field">
          <label htmlFor="summer_start_month">{P(t, "summer_start")}</label>
          <select id="summer_start_month" name="summer_start_month" defaultValue="4">
            {[2, 3, 4, 5].map((m) => <option key={m} value={m}>{t(`zones.months.m0${m}`)}</option>)}
          </select>
        </div>
        <div className="field">
          <label htmlFor="region">{P(t, "region")}</label>
          <select id="region" name="region" defaultValue="central">
            {DAC_REGIONS.map((r) => <option key={r} value={r}>{P(t, `regions.${r}`)}</option>)}
          </select>
        </div>
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-secondary" data-testid="apply-preset">
          {P(t, "apply")}
        </button>
      </div>
    </form>
  );
}

/** The note of a filled preset: its date, source and rounding, and what it left empty. */
export function PresetNote({ t, fill, id }: { t: Translate; fill: PresetFill; id: string }) {
  return (
    <div className="card notice" role="status" data-testid="preset-note">
      <p>
        <strong>{P(t, `names.${id}`)}</strong> — {fill.prices_date
          ? P(t, "note_dated", { date: fill.prices_date, source: fill.source })
          : P(t, "note_undated", { source: fill.source })}
      </p>
      <p data-testid="preset-coverage">{P(t, `coverage.${fill.coverage}`)}</p>
      <p className="hint">{P(t, "rounding")}</p>
      {fill.missing.length > 0 && <p className="field-error">{P(t, "missing")}</p>}
    </div>
  );
}

type NumKey = "minimum_monthly_kwh" | "fixed_charge_monthly" | "dac_limit_kwh";

/** The additions of real tariffs, each off when empty. */
export function RealTariffFields(
  { t, v, fe }: { t: Translate; v: TariffExtrasValues; fe: Record<string, string> },
) {
  const F = (k: string) => t(`zones.zone_form.${k}`);
  const num = (key: NumKey) => (
    <NumberField
      name={key}
      label={F(`fields.${key}`)}
      value={v[key]}
      hint={F(`hints.${key}`)}
      error={fe[key]}
    />
  );
  return (
    <Card title={F("sections.real_tariff")} headingId="zf-real">
      <input type="hidden" name="tariff_preset" value={v.tariff_preset} />
      <div className="form-grid">
        {num("minimum_monthly_kwh")}
        {num("fixed_charge_monthly")}
        {num("dac_limit_kwh")}
        <div className="field field-check">
          <label>
            <input
              type="checkbox"
              name="bimonthly_double_blocks"
              defaultChecked={v.bimonthly_double_blocks}
            />{" "}
            {F("fields.bimonthly_double_blocks")}
          </label>
          <p className="hint">{F("hints.bimonthly_double_blocks")}</p>
        </div>
      </div>
    </Card>
  );
}

/** Whether saved prices correct the version in force or start a new version from a month. */
export function PriceChange(
  { t, v, fe }: { t: Translate; v: TariffExtrasValues; fe: Record<string, string> },
) {
  const F = (k: string) => t(`zones.zone_form.price_change.${k}`);
  return (
    <fieldset className="card" data-testid="price-change">
      <legend>{F("legend")}</legend>
      <label className="field-check">
        <input
          type="radio"
          name="price_change"
          value="correct"
          defaultChecked={v.price_change !== "new"}
        />{" "}
        {F("correct")}
      </label>
      <label className="field-check">
        <input
          type="radio"
          name="price_change"
          value="new"
          defaultChecked={v.price_change === "new"}
        />{" "}
        {F("new_version")}
      </label>
      <TextField
        id="effective_from"
        label={F("month")}
        type="month"
        min={VERSION_MONTHS.first}
        max={VERSION_MONTHS.last}
        value={v.effective_from}
        error={fe.effective_from}
      />
    </fieldset>
  );
}
