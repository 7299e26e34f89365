/**
 * A POST form with one button (Delete) that asks for confirmation in a dialog first.
 * Without JavaScript the form posts without `confirm=yes` and the server answers with a
 * confirmation page; with JavaScript (the plain script `ConfirmSubmit.client.ts`) the click
 * opens the dialog, kept in a `<template>` until then, and confirming posts the same form
 * with `confirm=yes`.
 */
import { useId } from "react";

/** Props of the confirm-and-submit button. */
interface ConfirmSubmitProps {
  /** Where the form posts. */
  action: string;
  /** Hidden fields sent along (e.g. the tab and search to come back to). */
  fields: Record<string, string>;
  /** The button's label. */
  label: string;
  /** Classes of the button. */
  className: string;
  /** The dialog's title, message and buttons. */
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
}

/** The button, its form and its dialog (as a template). */
export default function ConfirmSubmit(
  { action, fields, label, className, title, message, confirmLabel, cancelLabel }:
    ConfirmSubmitProps,
) {
  const id = useId();
  return (
    <form method="post" action={action}>
      {Object.entries(fields).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
      <input type="hidden" name="confirm" defaultValue="" />
      <button type="submit" className={className}>{label}</button>
      <template>
        <div
          className="modal open"
          role="dialog"
          aria-modal="true"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-text`}
        >
          <div className="modal-box confirm-box">
            <div className="modal-head">
              <h2 id={`${id}-title`}>{title}</h2>
            </div>
            <div className="modal-body">
              <p id={`${id}-text`}>{message}</p>
            </div>
            <div className="modal-foot">
              <button type="button" className="btn btn-secondary" data-cancel>
                {cancelLabel}
              </button>
              <button
                type="button"
                className="btn btn-danger"
                data-confirm
                data-testid="confirm-delete"
              >
                {confirmLabel}
              </button>
            </div>
          </div>
        </div>
      </template>
    </form>
  );
}
