/**
 * One list, rendered once: a `<table>` on wide screens whose rows become cards on phones
 * through CSS alone (`static/styles/kit/responsive-list.css`). Each cell carries its column's
 * label in `data-label`, which the card layout shows before the value; a "primary" column becomes
 * the card's title, an "aside" column sits beside it (a status badge), and "actions" cells
 * span the card's width without a label. No JavaScript.
 *
 * ```tsx
 * <ResponsiveList
 *   label="Stations"
 *   rows={stations}
 *   rowKey={(s) => s.id}
 *   rowAttrs={(s) => ({ "data-station-id": s.id })}
 *   columns={[
 *     { label: "Station", primary: true, cell: (s) => <a href={`/s/${s.id}`}>{s.name}</a> },
 *     { label: "Status", aside: true, cell: (s) => <Badge tone="green">{s.status}</Badge> },
 *     { label: "Serial number", className: "mono", cell: (s) => s.serial },
 *     { label: "Actions", actions: true, cell: (s) => <a href={`/s/${s.id}/edit`}>Edit</a> },
 *   ]}
 *   empty={<p className="empty">No stations yet</p>}
 * />
 * ```
 */
import type { ReactNode } from "react";

/** One column of a {@link ResponsiveList}. */
export interface ListColumn<T> {
  /** The header text on wide screens and the cell's label on phone cards. */
  label: string;
  /** The cell's content for a row. */
  cell: (row: T) => ReactNode;
  /** The card's title on phones (no label shown); at most one column. */
  primary?: boolean;
  /** Beside the title on phone cards (a status badge; no label shown). */
  aside?: boolean;
  /** Buttons: the full width of the card, below the fields, no label shown. */
  actions?: boolean;
  /** Only in the table on wide screens (the card shows the same fact elsewhere). */
  wideOnly?: boolean;
  /** A number: header and cell aligned to the end (`.num`). */
  numeric?: boolean;
  /** Extra classes of the cell (`mono`, `nowrap`, `notes-cell`). */
  className?: string;
  /** `data-*` attributes of the cell (a `data-testid`, an id that a script updates). */
  cellAttrs?: (row: T) => Record<`data-${string}`, string | number>;
  /**
   * A sortable column: its header links to the list sorted by it (`href`), and says how the
   * list is sorted now (`dir`, null when sorted by another column).
   */
  sort?: { href: string; dir: "asc" | "desc" | null; title?: string };
}

/** Props of {@link ResponsiveList}. */
export interface ResponsiveListProps<T> {
  /** The list's accessible name. */
  label: string;
  columns: ListColumn<T>[];
  rows: readonly T[];
  /** A stable, unique key of a row. */
  rowKey: (row: T) => string | number;
  /** `data-*` attributes of a row (the id that tests and scripts look for). */
  rowAttrs?: (row: T) => Record<`data-${string}`, string | number>;
  /** Shown instead of the table when there are no rows (nothing when left out). */
  empty?: ReactNode;
  /** `data-testid` of the table. */
  testId?: string;
  /** Extra classes of the table (`num-table`, `events-table`). */
  className?: string;
  /** Wrap the table in a card on wide screens (default true); false inside a card. */
  framed?: boolean;
}

/** The cell's classes in the card layout. */
function cellClass<T>(c: ListColumn<T>): string | undefined {
  const parts = [
    c.primary && "rl-primary",
    c.aside && "rl-aside",
    c.actions && "rl-actions",
    c.wideOnly && "rl-wide",
    c.numeric && "num",
    c.className,
  ].filter(Boolean);
  return parts.length ? parts.join(" ") : undefined;
}

/** Whether a cell shows its label on phone cards. */
const labelled = <T,>(c: ListColumn<T>) => !c.primary && !c.aside && !c.actions && !c.wideOnly;

/** The list: a table on wide screens, cards on phones. */
export function ResponsiveList<T>(
  { label, columns, rows, rowKey, rowAttrs, empty, testId, className, framed = true }:
    ResponsiveListProps<T>,
) {
  if (rows.length === 0) return <>{empty ?? null}</>;
  const classes = columns.map(cellClass);
  const table = (
    <table
      className={`data rlist${className ? ` ${className}` : ""}`}
      aria-label={label}
      data-testid={testId}
    >
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th
              key={i}
              scope="col"
              className={c.numeric ? "num" : undefined}
              aria-sort={c.sort?.dir
                ? (c.sort.dir === "asc" ? "ascending" : "descending")
                : undefined}
            >
              {c.sort
                ? (
                  <a className="sort-link" href={c.sort.href} title={c.sort.title}>
                    {c.label}
                  </a>
                )
                : c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowAttrs?.(row)}>
            {columns.map((c, i) => (
              <td
                key={i}
                className={classes[i]}
                data-label={labelled(c) ? c.label : undefined}
                {...c.cellAttrs?.(row)}
              >
                {c.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <div className={framed ? "card table-wrap rlist-box" : "table-wrap rlist-box"}>{table}</div>
  );
}
