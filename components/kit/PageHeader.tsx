/** The head of a page: its title, an optional subtitle, and the page's main actions. */
import type { ReactNode } from "react";

/** Props of {@link PageHeader}. */
export interface PageHeaderProps {
  title: ReactNode;
  /** A muted line under the title. */
  subtitle?: ReactNode;
  /** The subtitle's class: `muted` by default, `page-sub` in the tenant's pages. */
  subtitleClass?: string;
  /** Buttons and links at the right (wrapping under the title on phones). */
  actions?: ReactNode;
  /** Extra classes of the head. */
  className?: string;
}

/** `<div class="page-head">` with the `<h1>` and the page actions. */
export function PageHeader(
  { title, subtitle, subtitleClass = "muted", actions, className }: PageHeaderProps,
) {
  return (
    <div className={className ? `page-head ${className}` : "page-head"}>
      {subtitle
        ? (
          <div>
            <h1>{title}</h1>
            <p className={subtitleClass}>{subtitle}</p>
          </div>
        )
        : <h1>{title}</h1>}
      {actions && <div className="page-actions">{actions}</div>}
    </div>
  );
}
