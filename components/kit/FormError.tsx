/** The error box of a form or a page: announced at once (`role="alert"`). */
import type { ReactNode } from "react";

/** Props of {@link FormError}. */
export interface FormErrorProps {
  /** The message; nothing is rendered when it is empty. */
  children?: ReactNode;
  /** Spaced as a notice under the page head (default true). */
  notice?: boolean;
  testId?: string;
}

/** `<div class="alert alert-error" role="alert">`, or nothing without a message. */
export function FormError({ children, notice = true, testId }: FormErrorProps) {
  if (children === undefined || children === null || children === false || children === "") {
    return null;
  }
  return (
    <div
      className={notice ? "alert alert-error notice" : "alert alert-error"}
      role="alert"
      data-testid={testId}
    >
      {children}
    </div>
  );
}
