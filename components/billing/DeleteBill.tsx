/**
 * The Delete Bill button of a bill list row: a form that posts to `{base}/bills/{id}/delete`
 * (a confirmation page without JavaScript; the ConfirmSubmit dialog with it).
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { Island } from "../render.tsx";
import ConfirmSubmit from "../../islands/ConfirmSubmit.tsx";

/** Props of {@link DeleteBill}. */
interface DeleteBillProps {
  t: Translate;
  /** The list page's path. */
  base: string;
  id: number;
  /** The button's text. */
  label: string;
  /** What the bill is, shown in the confirmation (`Norte · Depto 1`). */
  what: string;
  /** Hidden fields that bring the admin back to the same pickers. */
  back: Record<string, string>;
}

/** The button. */
export function DeleteBill({ t, base, id, label, what, back }: DeleteBillProps) {
  return (
    <Island
      of={ConfirmSubmit}
      props={{
        action: `${base}/bills/${id}/delete`,
        fields: back,
        label,
        className: "btn btn-sm btn-danger",
        title: t("billing.delete_dialog.title"),
        message: `${t("billing.delete_dialog.message")} (${what})`,
        confirmLabel: t("billing.delete_dialog.confirm"),
        cancelLabel: t("billing.delete_dialog.cancel"),
      }}
    />
  );
}
