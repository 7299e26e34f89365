/** A small coloured pill with a status word (Active, Paid, Overdue). */
import type { ReactNode } from "react";

/** The colours of a badge, as in `static/styles/kit/status-badge.css` (`.badge-green` ...). */
export type BadgeTone = "green" | "yellow" | "red" | "grey" | "blue" | "purple";

/** Props of {@link StatusBadge}. */
export interface StatusBadgeProps {
  tone: BadgeTone;
  children: ReactNode;
  testId?: string;
}

/** `<span class="badge badge-{tone}">`. */
export function StatusBadge({ tone, children, testId }: StatusBadgeProps) {
  return <span className={`badge badge-${tone}`} data-testid={testId}>{children}</span>;
}
