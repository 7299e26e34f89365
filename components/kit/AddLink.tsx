/** The main "add" button of a page: a link to a create form with the plus icon. */
import type { ReactNode } from "react";
import { Icon } from "../icons.tsx";

/** Props of {@link AddLink}. */
export interface AddLinkProps {
  /** The create form. */
  href: string;
  testId: string;
  /** The button's text. */
  children: ReactNode;
}

/** `<a class="btn">` with the plus icon before its text. */
export function AddLink({ href, testId, children }: AddLinkProps) {
  return (
    <a className="btn" href={href} data-testid={testId}>
      <Icon name="plus" /> {children}
    </a>
  );
}
