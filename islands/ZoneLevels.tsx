/**
 * The pricing configuration editor of the zone form: the pricing mode (basic, tiered,
 * seasonal, seasonal tiered), the flat prices, the winter period and the pricing levels with
 * their summer and winter copies. Its inputs are plain form fields (`pricing_mode`,
 * `price_low`, `summer_price_low`, `winter_price_low`, `winter_*`, and per level
 * `level_price_N`, `level_threshold_N`, `level_summer_price_N`, `level_summer_threshold_N`,
 * `level_winter_price_N`, `level_winter_threshold_N`), so the server reads the same thing
 * with or without JavaScript.
 *
 * Without JavaScript the add, remove and apply-mode buttons are submit buttons
 * (`name="action"`: `add_level`, `remove_level:N`, `mode`) and the server answers with the
 * form re-rendered; once hydrated they act in place. Up to 4 levels, the first cannot be
 * removed, a new level's threshold is the previous one plus 100, and turning seasonal on
 * copies the levels into summer and winter with price 0.
 */
import { type ReactNode, useEffect, useState } from "react";
import {
  addLevel,
  fieldInput,
  isSeasonal,
  type LevelRow,
  type Mode,
  PRICING_MODES,
  removeLevel,
  seasonalCopy,
  type ZoneLevelsValues,
} from "../core/zone_levels.ts";
import { MAX_LEVELS } from "../core/zone.ts";
import { NumberField } from "../components/zones/NumberField.tsx";

/** Props of the island. */
interface ZoneLevelsProps {
  values: ZoneLevelsValues;
  /** Translated errors by field (`levels.1.price`, `summer_levels`, `price_low`, ...). */
  errors: Record<string, string>;
  /** Translated texts by key (see the route). */
  labels: Record<string, string>;
}

const LEVEL_KEYS = ["low", "middle", "high", "surplus"] as const;

/** The single-value fields, each a number field. */
type FlatField = Exclude<keyof ZoneLevelsValues, "mode" | "levels">;

/** The winter period's fields, in order. */
const WINTER_PERIOD = [
  "winter_start_month",
  "winter_start_day",
  "winter_end_month",
  "winter_end_day",
] as const satisfies FlatField[];

/** The seasonal columns of a level: its field, and where its errors are keyed (`<list>.N.<key>`). */
const SEASON_COLUMNS = [
  ["summer_price", "summer_levels", "price"],
  ["summer_threshold", "summer_levels", "threshold"],
  ["winter_price", "winter_levels", "price"],
  ["winter_threshold", "winter_levels", "threshold"],
] as const satisfies [keyof LevelRow, string, string][];

/** The editor. */
export default function ZoneLevels({ values, errors, labels: L }: ZoneLevelsProps) {
  const [v, setV] = useState(values);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const seasonal = isSeasonal(v.mode);
  const tiered = v.mode === "tiered" || v.mode === "seasonal_tiered";

  const setMode = (mode: Mode) =>
    setV((cur) => {
      const next = { ...cur, mode };
      return isSeasonal(mode) && !isSeasonal(cur.mode) ? seasonalCopy(next) : next;
    });
  const setLevel = (i: number, k: keyof LevelRow, value: string) =>
    setV((cur) => ({
      ...cur,
      levels: cur.levels.map((l, j) => j === i ? { ...l, [k]: value } : l),
    }));
  const setField = (k: keyof ZoneLevelsValues, value: string) =>
    setV((cur) => ({ ...cur, [k]: value }));

  const err = (key: string) =>
    errors[key]
      ? <p className="field-error" id={`${key}-error`} role="alert">{errors[key]}</p>
      : null;
  /** The number field of value `k`, labelled `label` (by default the text of its own key). */
  const num = (k: FlatField, label = L[k]) => (
    <NumberField
      key={k}
      name={k}
      label={label}
      value={v[k]}
      onChange={(s) => setField(k, s)}
      error={errors[k]}
      alert
    />
  );
  const cell = (
    i: number,
    k: keyof LevelRow,
    errKey: string,
    label: string,
    extra?: ReactNode,
  ) => {
    const name = `level_${k}_${i}`;
    return (
      <td key={k} data-label={label}>
        {extra}
        <input
          name={name}
          {...fieldInput(name)}
          autoComplete="off"
          aria-label={`${L[`level_${i}`]} ${label}`}
          value={v.levels[i][k]}
          onChange={(e) => setLevel(i, k, e.currentTarget.value)}
          aria-invalid={errors[errKey] ? true : undefined}
        />
        {errors[errKey] && <span className="field-error">{errors[errKey]}</span>}
      </td>
    );
  };

  return (
    <div className="zone-levels">
      <input type="hidden" name="prev_mode" value={v.mode} />
      <fieldset className="mode-picker">
        <legend>{L.mode}</legend>
        {PRICING_MODES.map((m) => (
          <label key={m} className="mode-option">
            <input
              type="radio"
              name="pricing_mode"
              value={m}
              checked={v.mode === m}
              onChange={() => setMode(m)}
            />
            <span>
              <strong>{L[`mode_${m}`]}</strong>
              <span className="muted small">{L[`mode_${m}_description`]}</span>
            </span>
          </label>
        ))}
        {!hydrated && (
          <button type="submit" name="action" value="mode" className="btn btn-sm btn-secondary">
            {L.apply_mode}
          </button>
        )}
      </fieldset>
      {seasonal && <p className="hint">{L.seasonal_copy}</p>}

      {v.mode === "basic" && (
        <div className="form-grid">
          {num("price_low", L.price_per_kwh)}
        </div>
      )}
      {v.mode === "seasonal" && (
        <div className="form-grid">
          {num("summer_price_low", L.summer_price)}
          {num("winter_price_low", L.winter_price)}
        </div>
      )}
      {tiered && (
        <div className="levels-editor">
          <h3>{L.pricing_levels}</h3>
          {err("levels")}
          {err("summer_levels")}
          {err("winter_levels")}
          <div className="table-wrap">
            <table className="data levels-table" data-testid="levels-table">
              <thead>
                <tr>
                  <th scope="col">{L.col_level}</th>
                  {!seasonal && <th scope="col">{L.col_price}</th>}
                  <th scope="col">{L.col_threshold}</th>
                  {seasonal &&
                    SEASON_COLUMNS.map(([k]) => <th key={k} scope="col">{L[`col_${k}`]}</th>)}
                  <th scope="col">{L.col_actions}</th>
                </tr>
              </thead>
              <tbody>
                {v.levels.map((_, i) => (
                  <tr key={i} data-level={LEVEL_KEYS[i]}>
                    <th scope="row">{L[`level_${i}`]}</th>
                    {!seasonal && cell(i, "price", `levels.${i}.price`, L.col_price)}
                    {cell(
                      i,
                      "threshold",
                      `levels.${i}.threshold`,
                      L.col_threshold,
                      seasonal
                        ? (
                          <input
                            type="hidden"
                            name={`level_price_${i}`}
                            value={v.levels[i].price}
                          />
                        )
                        : undefined,
                    )}
                    {seasonal &&
                      SEASON_COLUMNS.map(([k, list, field]) =>
                        cell(i, k, `${list}.${i}.${field}`, L[`col_${k}`])
                      )}
                    <td>
                      {i === 0
                        ? <span className="muted small">{L.first_level_locked}</span>
                        : (
                          <button
                            type="submit"
                            name="action"
                            value={`remove_level:${i}`}
                            className="btn btn-sm btn-ghost"
                            onClick={(e) => {
                              e.preventDefault();
                              setV((cur) => ({ ...cur, levels: removeLevel(cur.levels, i) }));
                            }}
                          >
                            {L.remove_level}
                          </button>
                        )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="hint">{L.threshold_hint}</p>
          {v.levels.length < MAX_LEVELS && (
            <button
              type="submit"
              name="action"
              value="add_level"
              className="btn btn-sm btn-secondary"
              data-testid="add-level"
              onClick={(e) => {
                e.preventDefault();
                setV((cur) => ({ ...cur, levels: addLevel(cur.levels) }));
              }}
            >
              + {L.add_level}
            </button>
          )}
        </div>
      )}
      {!tiered && v.levels.map((l, i) => (
        <span key={i} hidden>
          <input type="hidden" name={`level_price_${i}`} value={l.price} />
          <input type="hidden" name={`level_threshold_${i}`} value={l.threshold} />
        </span>
      ))}
      {seasonal && (
        <fieldset className="winter-period">
          <legend>{L.winter_period}</legend>
          <div className="form-grid">
            {WINTER_PERIOD.map((k) => num(k))}
          </div>
          <p className="hint">{L.summer_rest}</p>
        </fieldset>
      )}
    </div>
  );
}
