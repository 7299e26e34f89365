/** The Create Access Code page around its form island. */
import type { Translate } from "../../services/platform/i18n.ts";
import { Island } from "../render.tsx";
import { FormError } from "../kit/mod.ts";
import AccessCodeForm from "../../islands/AccessCodeForm.tsx";
import type { StationOption, UnitOption } from "../../core/access_code.ts";

/** One checklist's choices as shown: the ticked ones and a page of the matching others. */
export interface ShownChoices<T> {
  items: T[];
  /** How many match the search in all. */
  matching: number;
}

/** What the form shows. */
export interface AccessCodeValues {
  code: string;
  role: "customer" | "user";
  notes: string;
  /** A tenant code's move-in date (`YYYY-MM-DD`, empty: at registration). */
  move_in_date: string;
  stations: number[];
  units: string[];
  /** The search of the checklists (empty: none). */
  q: string;
}

/** Props of {@link AccessCodePage}. */
interface AccessCodePageProps {
  t: Translate;
  action: string;
  cancelHref: string;
  values: AccessCodeValues;
  stations: ShownChoices<StationOption>;
  units: ShownChoices<UnitOption>;
  /** Translated errors by field. */
  fieldErrors: Record<string, string>;
  /** 'Failed to create access code', or 'Failed to fetch resources'. */
  error?: string;
}

/** Title, intro, errors and the form. */
export function AccessCodePage(
  { t, action, cancelHref, values, stations, units, fieldErrors, error }: AccessCodePageProps,
) {
  const showing = (c: ShownChoices<unknown>) =>
    c.items.length < c.matching
      ? t("users.code_form.showing", { shown: c.items.length, total: c.matching })
      : null;
  return (
    <>
      <div className="page-head">
        <h1>{t("users.code_form.title")}</h1>
      </div>
      <p className="muted">{t("users.code_form.intro")}</p>
      <FormError>{error}</FormError>
      <Island
        of={AccessCodeForm}
        props={{
          action,
          cancelHref,
          code: values.code,
          role: values.role,
          notes: values.notes,
          moveInDate: values.move_in_date,
          stations: stations.items,
          units: units.items,
          q: values.q,
          searchable: values.q !== "" || showing(stations) !== null || showing(units) !== null,
          selectedStations: values.stations,
          selectedUnits: values.units,
          errors: fieldErrors,
          texts: {
            code: t("users.code_form.code"),
            copy: t("users.actions.copy"),
            copied: t("users.actions.copied"),
            generate: t("users.code_form.generate"),
            accountType: t("users.code_form.account_type"),
            customer: t("users.code_form.customer"),
            tenant: t("users.code_form.tenant"),
            stations: t("users.code_form.stations"),
            stationsHint: t("users.code_form.stations_hint"),
            noStations: t("users.code_form.no_stations"),
            units: t("users.code_form.units"),
            unitsHint: t("users.code_form.units_hint"),
            noUnits: t("users.code_form.no_units"),
            notes: t("users.code_form.notes"),
            notesPlaceholder: t("users.code_form.notes_placeholder"),
            moveIn: t("users.code_form.move_in_date"),
            moveInHint: t("users.code_form.move_in_hint"),
            search: t("users.code_form.search"),
            searchButton: t("users.code_form.search_button"),
            stationsShowing: showing(stations),
            unitsShowing: showing(units),
            noMatches: t("users.code_form.no_matches", { q: values.q }),
            cancel: t("users.code_form.cancel"),
            create: t("users.code_form.create"),
            creating: t("users.code_form.creating"),
          },
        }}
      />
    </>
  );
}
