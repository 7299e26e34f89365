/**
 * What the station bills and the unit bills lists share: the dense responsive list of bills
 * (one row a bill, `data-bill-id`) and the row actions (view, the report in a language, the
 * delete button).
 */
import type { ReactNode } from "react";
import { type ListColumn, type Paging, ResponsiveList, sortBy } from "../kit/mod.ts";
import { DeleteBill } from "./DeleteBill.tsx";
import type { Translate } from "../../services/platform/i18n.ts";
import { LanguageMenu } from "../reports/LanguageMenu.tsx";
import { pdfHref } from "../reports/format.ts";

/** A bill row: its id and its station's name. */
interface BillRow {
  id: number;
  station: string;
}

/** Props of {@link BillList}. */
interface BillListProps<T extends BillRow> {
  t: Translate;
  /** Which bills: the texts are `billing.{kind}_billing.*`, the test id `{kind}-bills`. */
  kind: "station" | "unit";
  rows: readonly T[];
  /** The page shown: sortable headers (the pager is drawn below the list). */
  paging?: Paging;
  /** The columns after the station's. */
  columns: ListColumn<NoInfer<T>>[];
}

/** The list: a table on wide screens, cards on phones; the station is the card's title. */
export function BillList<T extends BillRow>({ t, kind, rows, paging, columns }: BillListProps<T>) {
  const label = t(`billing.${kind}_billing.columns.station`);
  const station: ListColumn<T> = {
    label,
    primary: true,
    cell: (r) => r.station,
    sort: sortBy(t, paging, "station", label),
  };
  return (
    <ResponsiveList
      label={t(`billing.${kind}_billing.title`)}
      testId={`${kind}-bills`}
      className="dense"
      rows={rows}
      rowKey={(r) => r.id}
      rowAttrs={(r) => ({ "data-bill-id": r.id })}
      columns={[station, ...columns]}
    />
  );
}

/** Props of {@link BillActions}. */
interface BillActionsProps {
  t: Translate;
  /** The bill's details page and the link's text. */
  view: { href: string; label: string };
  /** The bill's PDF report (offered when the pickers name a period) and the menu's text. */
  report: { stationId: number; type: "unit" | "customer"; unit?: string; label: string };
  /** Between the report and the delete button (the Record Payment link). */
  children?: ReactNode;
  /** The delete button, when the bill may be deleted: its text and what the bill is. */
  remove: { label: string; what: string } | null;
  /** The list page's path. */
  base: string;
  id: number;
  /** Hidden fields that bring the admin back to the same pickers. */
  back: Record<string, string>;
}

/** The actions cell of a bill row. */
export function BillActions(
  { t, view, report, children, remove, base, id, back }: BillActionsProps,
) {
  const { stationId, type, unit } = report;
  return (
    <div className="row-actions">
      <a className="btn btn-sm btn-secondary" href={view.href}>
        {view.label}
      </a>
      {back.period && (
        <LanguageMenu
          t={t}
          small
          label={report.label}
          languages={["en", "es"]}
          href={(language) => pdfHref(stationId, { type, period: back.period, unit, language })}
        />
      )}
      {children}
      {remove && (
        <DeleteBill t={t} base={base} id={id} label={remove.label} what={remove.what} back={back} />
      )}
    </div>
  );
}
