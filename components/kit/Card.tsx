/** A titled card: a page's section with its heading. */
import type { HTMLAttributes, ReactNode } from "react";

/** Props of {@link Card}; other attributes (`data-testid`, `role`, …) go to the section. */
export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, "title"> {
  title: ReactNode;
  /** The heading's id, which then labels the section (`aria-labelledby`). */
  headingId?: string;
  /** Extra classes of the section. */
  className?: string;
  children?: ReactNode;
}

/** `<section class="card">` with its `<h2>` title first, then the children. */
export function Card({ title, headingId, className, children, ...rest }: CardProps) {
  return (
    <section
      className={className ? `card ${className}` : "card"}
      aria-labelledby={headingId}
      {...rest}
    >
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}
