/**
 * A POST form with one button (Delete) that asks for confirmation in a dialog first.
 * Without JavaScript the form posts without `confirm=yes` and the server answers with a
 * confirmation page; with JavaScript the click opens the dialog, and confirming posts
 * the same form with `confirm=yes`.
 */
import { useEffect, useId, useRef, useState } from "react";

/** Props of the confirm-and-submit button. */
export interface ConfirmSubmitProps {
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

/** The button, its form and its dialog. */
export default function ConfirmSubmit(
  { action, fields, label, className, title, message, confirmLabel, cancelLabel }:
    ConfirmSubmitProps,
) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const confirm = useRef<HTMLInputElement>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const id = useId();

  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    confirmButton.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const submit = () => {
    if (!form.current || !confirm.current) return;
    confirm.current.value = "yes";
    setBusy(true);
    form.current.submit();
  };

  return (
    <form ref={form} method="post" action={action}>
      {Object.entries(fields).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
      <input ref={confirm} type="hidden" name="confirm" defaultValue="" />
      <button
        ref={opener}
        type="submit"
        className={className}
        onClick={(e) => {
          e.preventDefault();
          setOpen(true);
        }}
      >
        {label}
      </button>
      {open && (
        <div
          className="modal open"
          role="dialog"
          aria-modal="true"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-text`}
          onClick={(e) => {
            if (e.target === e.currentTarget) close();
          }}
        >
          <div className="modal-box confirm-box">
            <div className="modal-head">
              <h2 id={`${id}-title`}>{title}</h2>
            </div>
            <div className="modal-body">
              <p id={`${id}-text`}>{message}</p>
            </div>
            <div className="modal-foot">
              <button type="button" className="btn btn-secondary" onClick={close}>
                {cancelLabel}
              </button>
              <button
                ref={confirmButton}
                type="button"
                className="btn btn-danger"
                disabled={busy}
                onClick={submit}
                data-testid="confirm-delete"
              >
                {confirmLabel}
              </button>
            </div>
          </div>
        </div>
      )}
    </form>
  );
}
