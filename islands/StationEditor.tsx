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
import { type ReactNode, useEffect, useState } from "react";
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
    onClick: () => void,
    extra: Record<string, string>,
  ) => (
    <button
      type={enhanced ? "button" : "submit"}
      name={enhanced ? undefined : "action"}
      value={enhanced ? undefined : action}
      className="btn btn-sm btn-secondary"
      formNoValidate
      onClick={enhanced ? onClick : undefined}
      {...extra}
    >
      {label}
    </button>
  );
  /** The button that removes row `row` of a `kind` list. */
  const removeButton = (
    kind: Kind,
    label: string,
    row: { id: string; name: string },
    onRemove: (id: string) => void,
  ) =>
    actionButton(`remove_${kind}:${row.id}`, label, () => onRemove(row.id), {
      "aria-label": `${label}: ${row.name || row.id}`,
    });
  /** The button that adds a row to a `kind` list. */
  const addButton = (kind: Kind, label: string, onAdd: () => void) =>
    actionButton(`add_${kind}`, `+ ${label}`, onAdd, { "data-testid": `add-${kind}` });
  /** The name field of row `i` of a `kind` list. */
  const nameField = (kind: Kind, i: number, label: string, value: string, edit: EditName) => (
    <RowField id={`${kind}_name_${i}`} label={label}>
      <input
        id={`${kind}_name_${i}`}
        name={`${kind}_name`}
        type="text"
        maxLength={100}
        value={value}
        onChange={(e) => edit({ name: e.target.value })}
      />
    </RowField>
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
      <RowsSection
        titleId="ssr-title"
        title={texts.ssrTitle}
        count={
          <span className="badge badge-grey" data-testid="ssr-count">
            {texts.ssrCount}: {ssrs.length}/{MAX_SSRS}
          </span>
        }
        hint={texts.ssrHint}
        empty={{ text: texts.noSsrs, testId: "no-ssrs" }}
        rows={ssrs.map((s, i) => (
          <li key={s.id} className="editor-row editor-row-ssr" data-ssr-row={s.id}>
            <input type="hidden" name="ssr_id" value={s.id} />
            <input type="hidden" name="ssr_gpio" value={s.gpio_pin} />
            <span className="gpio-chip" data-testid="ssr-gpio">{gpio(s.gpio_pin)}</span>
            {nameField("ssr", i, texts.ssrName, s.name, (patch) =>
              editSsr(s.id, patch))}
            <RowSelect
              name="ssr_type"
              index={i}
              label={texts.ssrType}
              value={s.type}
              onChange={(v) =>
                editSsr(s.id, { type: v === "emergency" ? "emergency" : "normal" })}
            >
              <option value="normal">{texts.normal}</option>
              <option value="emergency">{texts.emergency}</option>
            </RowSelect>
            {removeButton("ssr", texts.removeSsr, s, onRemoveSsr)}
          </li>
        ))}
        error={{ text: ssrError, id: "ssrs-error", testId: "ssr-error" }}
        add={addButton("ssr", texts.addSsr, onAddSsr)}
      />
      <RowsSection
        titleId="units-title"
        title={texts.unitsTitle}
        count={<span className="badge badge-grey" data-testid="unit-count">{units.length}</span>}
        hint={texts.unitsHint}
        empty={{ text: texts.noUnits, testId: "no-units" }}
        rows={units.map((u, i) => (
          <li key={u.id} className="editor-row editor-row-unit" data-unit-row={u.id}>
            <input type="hidden" name="unit_id" value={u.id} />
            {nameField("unit", i, texts.unitName, u.name, (patch) =>
              editUnit(u.id, patch))}
            <RowSelect
              name="unit_ssr"
              index={i}
              label={texts.unitSsr}
              value={u.ssr_id}
              onChange={(v) =>
                editUnit(u.id, { ssr_id: v })}
            >
              {!ssrs.some((s) =>
                s.id === u.ssr_id
              ) && <option value={u.ssr_id}>{u.ssr_id}</option>}
              {ssrs.map((s) => <option key={s.id} value={s.id}>{ssrLabel(s)}</option>)}
            </RowSelect>
            {removeButton("unit", texts.removeUnit, u, onRemoveUnit)}
          </li>
        ))}
        error={{ text: unitError, id: "units-error", testId: "unit-error" }}
        add={addButton("unit", texts.addUnit, onAddUnit)}
      />
    </>
  );
}

/** The two lists the editor edits. */
type Kind = "ssr" | "unit";
type EditName = (patch: { name: string }) => void;

/** A labelled field of a row. */
function RowField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

/** The select `name` of row `index` (its id `<name>_<index>`). */
function RowSelect(
  { name, index, label, value, onChange, children }: {
    name: string;
    index: number;
    label: string;
    value: string;
    onChange: (value: string) => void;
    children: ReactNode;
  },
) {
  return (
    <RowField id={`${name}_${index}`} label={label}>
      <select
        id={`${name}_${index}`}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        {children}
      </select>
    </RowField>
  );
}

/** One of the two sections: its head, hint, rows, error (announced) and add button. */
function RowsSection(props: {
  titleId: string;
  title: string;
  count: ReactNode;
  hint: string;
  /** What stands instead of the rows when there are none. */
  empty: { text: string; testId: string };
  rows: ReactNode[];
  /** The list's refusal or server error ("" for none), with its id and test id. */
  error: { text: string; id: string; testId: string };
  add: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={props.titleId}>
      <div className="section-head">
        <h2 id={props.titleId}>{props.title}</h2>
        {props.count}
      </div>
      <p className="hint">{props.hint}</p>
      {props.rows.length === 0 && (
        <p className="muted" data-testid={props.empty.testId}>{props.empty.text}</p>
      )}
      <ol className="editor-rows">{props.rows}</ol>
      <div aria-live="polite">
        {props.error.text && (
          <p className="field-error" id={props.error.id} data-testid={props.error.testId}>
            {props.error.text}
          </p>
        )}
      </div>
      <div className="editor-actions">{props.add}</div>
    </section>
  );
}
