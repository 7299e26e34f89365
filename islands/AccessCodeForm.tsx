/**
 * The Create Access Code form: read-only code with Copy and Generate New, account type
 * (Customer or Tenant), the checklist of stations or units, notes, Cancel and Create.
 * Without JavaScript every part works by posting (Generate New re-renders on the server
 * with a new code); with it, Generate New draws a code in the browser, only the checklist
 * of the chosen type shows, and Create is disabled while submitting or with no code.
 *
 * A fleet may hold thousands of stations, so the checklists show the ticked choices and a
 * page of the others that match a search. Searching posts the form (ticks kept) with
 * `action=search`; a post whose search text differs from the one shown (`q_shown`: Enter in
 * the search field) is a search too, never a Create.
 */
import { useEffect, useState } from "react";
import CopyButton from "./CopyButton.tsx";
import { errAttrs, Field, FieldError, hintAttrs } from "../components/Field.tsx";
import {
  ACCESS_CODE_LENGTH,
  accessCodeFromBytes,
  type StationOption,
  type UnitOption,
} from "../core/access_code.ts";

/** Texts of the form, translated on the server. */
interface AccessCodeFormTexts {
  code: string;
  copy: string;
  copied: string;
  generate: string;
  accountType: string;
  customer: string;
  tenant: string;
  stations: string;
  stationsHint: string;
  noStations: string;
  units: string;
  unitsHint: string;
  noUnits: string;
  notes: string;
  notesPlaceholder: string;
  moveIn: string;
  moveInHint: string;
  search: string;
  searchButton: string;
  /** "Showing {{shown}} of {{total}}...", for each list shown in part. */
  stationsShowing: string | null;
  unitsShowing: string | null;
  /** "Nothing matches ...", when a search found nothing. */
  noMatches: string;
  cancel: string;
  create: string;
  creating: string;
}

/** Props of the form. */
interface AccessCodeFormProps {
  action: string;
  cancelHref: string;
  code: string;
  role: "customer" | "user";
  notes: string;
  /** A tenant code's move-in date (`YYYY-MM-DD`, empty: at registration). */
  moveInDate: string;
  stations: StationOption[];
  units: UnitOption[];
  /** The search the lists are filtered by (empty: none). */
  q: string;
  /** Whether the search shows: a list shows only a part, or a search is on. */
  searchable: boolean;
  selectedStations: number[];
  selectedUnits: string[];
  /** Translated field errors (code, role, assignments, notes). */
  errors: Record<string, string>;
  texts: AccessCodeFormTexts;
}

/** A fresh random code drawn in the browser. */
function newCode(): string {
  return accessCodeFromBytes(crypto.getRandomValues(new Uint8Array(ACCESS_CODE_LENGTH)));
}

/** A fieldset of checkboxes (the stations or units to assign), or a note that there are none. */
function Checklist({ legend, hint, empty, showing, name, items, checked }: {
  legend: string;
  hint: string;
  /** Shown instead of the boxes when there is nothing to choose. */
  empty: string;
  /** Shown under the boxes when they are a part of the matching ones. */
  showing: string | null;
  /** The checkboxes' name; the fieldset's test id is `{name}-list`. */
  name: string;
  items: readonly { value: string; label: string }[];
  checked: (value: string) => boolean;
}) {
  return (
    <fieldset data-testid={`${name}-list`}>
      <legend>{legend}</legend>
      <p className="hint">{hint}</p>
      {items.length === 0 ? <p className="muted">{empty}</p> : (
        <div className="checklist">
          {items.map((x) => (
            <label key={x.value} className="check">
              <input
                type="checkbox"
                name={name}
                value={x.value}
                defaultChecked={checked(x.value)}
              />
              <span>{x.label}</span>
            </label>
          ))}
        </div>
      )}
      {showing && <p className="hint">{showing}</p>}
    </fieldset>
  );
}

/** The form. */
export default function AccessCodeForm(props: AccessCodeFormProps) {
  const { texts, errors } = props;
  const [code, setCode] = useState(props.code);
  const [role, setRole] = useState(props.role);
  const [submitting, setSubmitting] = useState(false);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const blocked = submitting || !code;
  const errorOf = (id: string) => <FieldError id={id} message={errors[id]} />;
  const invalid = (id: string) => errAttrs(id, errors[id]);

  return (
    <form
      method="post"
      action={props.action}
      className="form"
      noValidate
      onSubmit={(e) => {
        // A search posts the form too, but creates nothing: never blocked, no "Creating...".
        const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        const q = (e.currentTarget.elements.namedItem("q") as HTMLInputElement | null)?.value;
        if (submitter?.value === "search" || (q ?? "").trim() !== props.q) return;
        if (blocked) {
          e.preventDefault();
          return;
        }
        setSubmitting(true);
      }}
    >
      {/* The default button: Enter submits Create, not Generate New. */}
      <button
        type="submit"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        disabled={blocked}
      />
      <section className="card">
        <div className="form" style={{ gap: "1.1rem" }}>
          <Field id="code" label={texts.code} error={errors.code}>
            <div className="code-box">
              <input
                id="code"
                name="code"
                type="text"
                readOnly
                value={code}
                data-testid="access-code"
                {...invalid("code")}
              />
              <CopyButton text={code} label={texts.copy} copiedLabel={texts.copied} />
              <button
                type="submit"
                name="action"
                value="regenerate"
                className="btn btn-sm btn-secondary"
                formNoValidate
                onClick={(e) => {
                  e.preventDefault();
                  setCode(newCode());
                }}
              >
                {texts.generate}
              </button>
            </div>
          </Field>
          <fieldset>
            <legend>{texts.accountType}</legend>
            <div className="radio-row">
              {(["customer", "user"] as const).map((r) => (
                <label key={r} className="check">
                  <input
                    type="radio"
                    name="role"
                    value={r}
                    checked={role === r}
                    onChange={() => setRole(r)}
                  />
                  <span>{r === "customer" ? texts.customer : texts.tenant}</span>
                </label>
              ))}
            </div>
            {errorOf("role")}
          </fieldset>
          {props.searchable && (
            <div className="field">
              <label htmlFor="choice-q">{texts.search}</label>
              <div className="code-box">
                <input
                  id="choice-q"
                  name="q"
                  type="search"
                  maxLength={200}
                  defaultValue={props.q}
                  data-testid="choice-search"
                />
                <input type="hidden" name="q_shown" value={props.q} />
                <button
                  type="submit"
                  name="action"
                  value="search"
                  className="btn btn-sm btn-secondary"
                  formNoValidate
                  data-testid="choice-search-button"
                >
                  {texts.searchButton}
                </button>
              </div>
            </div>
          )}
          {(!enhanced || role === "customer") && (
            <Checklist
              legend={texts.stations}
              hint={texts.stationsHint}
              empty={props.q ? texts.noMatches : texts.noStations}
              showing={texts.stationsShowing}
              name="stations"
              items={props.stations.map((s) => ({ value: String(s.id), label: s.label }))}
              checked={(value) => props.selectedStations.includes(Number(value))}
            />
          )}
          {(!enhanced || role === "user") && (
            <Checklist
              legend={texts.units}
              hint={texts.unitsHint}
              empty={props.q ? texts.noMatches : texts.noUnits}
              showing={texts.unitsShowing}
              name="units"
              items={props.units}
              checked={(value) => props.selectedUnits.includes(value)}
            />
          )}
          {errorOf("assignments")}
          {(!enhanced || role === "user") && (
            <Field
              id="move_in_date"
              label={texts.moveIn}
              hint={texts.moveInHint}
              hintLinked
              error={errors.move_in_date}
            >
              <input
                id="move_in_date"
                name="move_in_date"
                type="date"
                min="2000-01-01"
                max="2100-12-31"
                defaultValue={props.moveInDate}
                {...hintAttrs("move_in_date", errors.move_in_date)}
              />
            </Field>
          )}
          <Field id="notes" label={texts.notes} error={errors.notes}>
            <textarea
              id="notes"
              name="notes"
              maxLength={500}
              placeholder={texts.notesPlaceholder}
              defaultValue={props.notes}
              {...invalid("notes")}
            />
          </Field>
        </div>
      </section>
      <div className="form-actions">
        <a className="btn btn-secondary" href={props.cancelHref}>{texts.cancel}</a>
        <button type="submit" className="btn" disabled={blocked} data-testid="create-code">
          {submitting ? texts.creating : texts.create}
        </button>
      </div>
    </form>
  );
}
