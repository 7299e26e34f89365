/**
 * The "Generate SPEI reference" form: a plain POST form (works without JavaScript); with it, the
 * button shows a spinner and stays disabled while the reference is being generated.
 */
import { useState } from "react";

/** Props of the form. */
export interface GenerateReferenceProps {
  action: string;
  billId: number;
  label: string;
  busyLabel: string;
  /** Red (past due) or the normal primary button. */
  danger?: boolean;
}

/** The form and its button. */
export default function GenerateReference(
  { action, billId, label, busyLabel, danger }: GenerateReferenceProps,
) {
  const [busy, setBusy] = useState(false);
  return (
    <form method="post" action={action} onSubmit={() => setBusy(true)} className="inline-form">
      <input type="hidden" name="bill" value={String(billId)} />
      <button
        type="submit"
        className={`btn${danger ? " btn-danger" : ""}`}
        disabled={busy}
        aria-busy={busy}
        data-testid="generate-reference"
      >
        {busy && <span className="spinner" aria-hidden="true" />}
        {busy ? busyLabel : label}
      </button>
    </form>
  );
}
