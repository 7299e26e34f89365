/**
 * The "Generate SPEI reference" form: a plain POST form (works without JavaScript); with it
 * (the plain script `GenerateReference.client.ts`), the button shows a spinner and stays
 * disabled while the reference is being generated.
 */

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
  { action, billId, label, danger }: GenerateReferenceProps,
) {
  return (
    <form method="post" action={action} className="inline-form">
      <input type="hidden" name="bill" value={String(billId)} />
      <button
        type="submit"
        className={`btn${danger ? " btn-danger" : ""}`}
        data-testid="generate-reference"
      >
        {label}
      </button>
    </form>
  );
}
