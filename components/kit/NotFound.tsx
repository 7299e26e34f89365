/** The card of a page whose subject is missing: what was not found and the way back. */
import type { ReactNode } from "react";

/** Props of {@link NotFound}. */
export interface NotFoundProps {
  title: ReactNode;
  /** A line under the title. */
  message?: ReactNode;
  /** The way back: a secondary button, or the page's main one with `primary`. */
  back: { href: string; label: ReactNode; primary?: boolean };
  testId: string;
}

/** `<section class="card empty">` with the `<h1>`, the message and the back button. */
export function NotFound({ title, message, back, testId }: NotFoundProps) {
  return (
    <section className="card empty" data-testid={testId}>
      <h1>{title}</h1>
      {message && <p>{message}</p>}
      <a className={back.primary ? "btn" : "btn btn-secondary"} href={back.href}>{back.label}</a>
    </section>
  );
}
