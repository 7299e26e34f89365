/**
 * The header's terms and privacy dialog: a marker placed beside the header's link to `/legal`
 * (`a[data-terms-dialog]`). Its browser side (`TermsDialog.client.ts`) opens the dialog instead
 * of following the link, loading it once from `/legal/dialog`.
 */

/** Props: none; the island works on the header's link. */
type TermsDialogProps = Record<string, never>;

/** The marker the script starts from. */
export default function TermsDialog(_props: TermsDialogProps) {
  return <span hidden />;
}
