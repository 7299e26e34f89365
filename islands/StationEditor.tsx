/**
 * The SSR and unit editor of the station form (two sections: SSR configuration and unit
 * configuration). Its inputs are plain indexed form fields (`ssr_id`, `ssr_name`,
 * `ssr_type`, `ssr_gpio`; `unit_id`, `unit_name`, `unit_ssr`, one of each per row, in
 * order), so the server reads the same thing with or without JavaScript.
 *
 * Without JavaScript the add and remove buttons are submit buttons (`name="action"`,
 * values `add_ssr`, `add_unit`, `remove_ssr:<id>`, `remove_unit:<id>`) and the server
 * answers with the form re-rendered; once hydrated they edit the rows in place and refuse
 * what the spec refuses (a 13th SSR, a GPIO pin past 19, removing an SSR used by a unit,
 * a unit without SSRs) with the same messages.
 */
import { useEffect, useState } from "react";
import {
  addSsr,
  addUnit,
  type EditorSsr,
  type EditorUnit,
  type EditRefusal,
  removeSsr,
  removeUnit,
} from "../core/station_editor.ts";
import { MAX_SSRS } from "../core/devices.ts";

/** Texts of the editor, translated on the server. */
interface StationEditorTexts {
  ssrTitle: string;
  unitsTitle: string;
  ssrHint: string;
  unitsHint: string;
  ssrName: string;
  ssrType: string;
  normal: string;
  emergency: string;
  gpio: string;
  /** "GPIO{pin}" with `{pin}` to fill in. */
  gpioLabel: string;
  /** Default SSR name, with `{n}`. */
  ssrDefault: string;
  /** Default unit name, with `{n}`. */
  unitDefault: string;
  /** "{count}/{max}" counter label, e.g. "Number of SSRs". */
  ssrCount: string;
  addSsr: string;
  removeSsr: string;
  unitName: string;
  unitSsr: string;
  addUnit: string;
  removeUnit: string;
  noSsrs: string;
  noUnits: string;
  refusals: Record<EditRefusal, string>;
}

/** Props of the editor. */
interface StationEditorProps {
  ssrs: EditorSsr[];
  units: EditorUnit[];
  /** Translated server errors of the SSR list and the unit list. */
  errors: { ssrs?: string; units?: string };
  texts: StationEditorTexts;
}

const fill = (template: string, key: string, value: string | number) =>
  template.split(`{${key}}`).join(String(value));

/** The two sections. */
export default function StationEditor(
  { ssrs: ssrs0, units: units0, errors, texts }: StationEditorProps,
) {
  const [enhanced, setEnhanced] = useState(false);
  const [ssrs, setSsrs] = useState(ssrs0);
  const [units, setUnits] = useState(units0);
  const [ssrError, setSsrError] = useState(errors.ssrs ?? "");
  const [unitError, setUnitError] = useState(errors.units ?? "");
  useEffect(() => setEnhanced(true), []);

  const ssrName = (n: number) => fill(texts.ssrDefault, "n", n);
  const unitName = (n: number) => fill(texts.unitDefault, "n", n);
  const gpio = (pin: number) => fill(texts.gpioLabel, "pin", pin);

  /** A button that edits in place once hydrated and submits `action` before. */
  const actionButton = (
    action: string,
    label: string,
    className: string,
    onClick: () => void,
    extra: Record<string, string> = {},
  ) => (
    <button
      type={enhanced ? "button" : "submit"}
      name={enhanced ? undefined : "action"}
      value={enhanced ? undefined : action}
      className={className}
      formNoValidate
      onClick={enhanced ? onClick : undefined}
      {...extra}
    >
      {label}
    </button>
  );

  const onAddSsr = () => {
    const res = addSsr(ssrs, ssrName);
    if (!res.ok) return setSsrError(texts.refusals[res.reason]);
    setSsrs(res.rows);
    setSsrError("");
  };
  const onRemoveSsr = (id: string) => {
    const res = removeSsr(ssrs, units, id);
    if (!res.ok) return setSsrError(texts.refusals[res.reason]);
    setSsrs(res.rows);
    setSsrError("");
    setUnitError("");
  };
  const onAddUnit = () => {
    const res = addUnit(ssrs, units, unitName);
    if (!res.ok) return setUnitError(texts.refusals[res.reason]);
    setUnits(res.rows);
    setUnitError("");
  };
  const onRemoveUnit = (id: string) => {
    setUnits(removeUnit(units, id));
    setUnitError("");
  };
  const editSsr = (id: string, patch: Partial<EditorSsr>) =>
    setSsrs(ssrs.map((s) => (s.id === id ? { ...s, ...patch } : s)));
  const editUnit = (id: string, patch: Partial<EditorUnit>) =>
    setUnits(units.map((u) => (u.id === id ? { ...u, ...patch } : u)));

  const ssrLabel = (s: EditorSsr) => `${s.name || s.id} (${gpio(s.gpio_pin)})`;

  return (
    <>
      <section className="card" aria-labelledby="ssr-title">
        <div className="section-head">
          <h2 id="ssr-title">{texts.ssrTitle}</h2>
          <span className="badge badge-grey" data-testid="ssr-count">
            {texts.ssrCount}: {ssrs.length}/{MAX_SSRS}
          </span>
        </div>
        <p className="hint">{texts.ssrHint}</p>
        {ssrs.length === 0 && <p className="muted" data-testid="no-ssrs">{texts.noSsrs}</p>}
        <ol className="editor-rows">
          {ssrs.map((s, i) => (
            <li key={s.id} className="editor-row editor-row-ssr" data-ssr-row={s.id}>
              <input type="hidden" name="ssr_id" value={s.id} />
              <input type="hidden" name="ssr_gpio" value={s.gpio_pin} />
              <span className="gpio-chip" data-testid="ssr-gpio">{gpio(s.gpio_pin)}</span>
              <div className="field">
                <label htmlFor={`ssr_name_${i}`}>{texts.ssrName}</label>
                <input
                  id={`ssr_name_${i}`}
                  name="ssr_name"
                  type="text"
                  maxLength={100}
                  value={s.name}
                  onChange={(e) =>
                    editSsr(s.id, { name: e.target.value })}
                />
              </div>
              <div className="field">
                <label htmlFor={`ssr_type_${i}`}>{texts.ssrType}</label>
                <select
                  id={`ssr_type_${i}`}
                  name="ssr_type"
                  value={s.type}
                  onChange={(e) =>
                    editSsr(s.id, {
                      type: e.target.value === "emergency" ? "emergency" : "normal",
                    })}
                >
                  <option value="normal">{texts.normal}</option>
                  <option value="emergency">{texts.emergency}</option>
                </select>
              </div>
              {actionButton(
                `remove_ssr:${s.id}`,
                texts.removeSsr,
                "btn btn-sm btn-secondary",
                () =>
                  onRemoveSsr(s.id),
                { "aria-label": `${texts.removeSsr}: ${s.name || s.id}` },
              )}
            </li>
          ))}
        </ol>
        <div aria-live="polite">
          {ssrError && (
            <p className="field-error" id="ssrs-error" data-testid="ssr-error">{ssrError}</p>
          )}
        </div>
        <div className="editor-actions">
          {actionButton("add_ssr", `+ ${texts.addSsr}`, "btn btn-sm btn-secondary", onAddSsr, {
            "data-testid": "add-ssr",
          })}
        </div>
      </section>
      <section className="card" aria-labelledby="units-title">
        <div className="section-head">
          <h2 id="units-title">{texts.unitsTitle}</h2>
          <span className="badge badge-grey" data-testid="unit-count">{units.length}</span>
        </div>
        <p className="hint">{texts.unitsHint}</p>
        {units.length === 0 && <p className="muted" data-testid="no-units">{texts.noUnits}</p>}
        <ol className="editor-rows">
          {units.map((u, i) => (
            <li key={u.id} className="editor-row editor-row-unit" data-unit-row={u.id}>
              <input type="hidden" name="unit_id" value={u.id} />
              <div className="field">
                <label htmlFor={`unit_name_${i}`}>{texts.unitName}</label>
                <input
                  id={`unit_name_${i}`}
                  name="unit_name"
                  type="text"
                  maxLength={100}
                  value={u.name}
                  onChange={(e) =>
                    editUnit(u.id, { name: e.target.value })}
                />
              </div>
              <div className="field">
                <label htmlFor={`unit_ssr_${i}`}>{texts.unitSsr}</label>
                <select
                  id={`unit_ssr_${i}`}
                  name="unit_ssr"
                  value={u.ssr_id}
                  onChange={(e) =>
                    editUnit(u.id, { ssr_id: e.target.value })}
                >
                  {!ssrs.some((s) =>
                    s.id === u.ssr_id
                  ) && <option value={u.ssr_id}>{u.ssr_id}</option>}
                  {ssrs.map((s) => <option key={s.id} value={s.id}>{ssrLabel(s)}</option>)}
                </select>
              </div>
              {actionButton(
                `remove_unit:${u.id}`,
                texts.removeUnit,
                "btn btn-sm btn-secondary",
                () =>
                  onRemoveUnit(u.id),
                { "aria-label": `${texts.removeUnit}: ${u.name || u.id}` },
              )}
            </li>
          ))}
        </ol>
        <div aria-live="polite">
          {unitError && (
            <p className="field-error" id="units-error" data-testid="unit-error">{unitError}</p>
          )}
        </div>
        <div className="editor-actions">
          {actionButton("add_unit", `+ ${texts.addUnit}`, "btn btn-sm btn-secondary", onAddUnit, {
            "data-testid": "add-unit",
          })}
        </div>
      </section>
    </>
  );
}
