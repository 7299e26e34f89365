/** A list of labelled values. */
import type { ReactNode } from "react";

/** Props of {@link Facts}. */
export interface FactsProps {
  /** Label and value of each row, in order (labels are unique within a list). */
  rows: [string, ReactNode][];
  /** The list's classes (`facts`, `info-list`). */
  className?: string;
}

/** `<dl>` with a `<dt>` and a `<dd>` per row. */
export function Facts({ rows, className }: FactsProps) {
  return (
    <dl className={className}>
      {rows.map(([k, v]) => [<dt key={`${k}-t`}>{k}</dt>, <dd key={`${k}-d`}>{v}</dd>])}
    </dl>
  );
}
