/** The confirmation page of a delete or a deactivation, for browsers without JavaScript. */
import type { Translate } from "../../services/platform/i18n.ts";

/** Props of {@link ConfirmPage}. */
export interface ConfirmPageProps {
  t: Translate;
  title: string;
  message: string;
  /** Where the confirming form posts (with `confirm=yes`). */
  action: string;
  /** Hidden fields sent along (tab and search to come back to). */
  fields: Record<string, string>;
  cancelHref: string;
  /** The confirming button's label (Delete unless told). */
  confirmLabel?: string;
}

/** Title, question, Cancel and Delete. */
export function ConfirmPage(
  { t, title, message, action, fields, cancelHref, confirmLabel }: ConfirmPageProps,
) {
  return (
    <section className="card confirm-card" aria-labelledby="confirm-title">
      <h1 id="confirm-title">{title}</h1>
      <p>{message}</p>
      <form method="post" action={action} className="form-actions">
        {Object.entries(fields).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
        <input type="hidden" name="confirm" value="yes" />
        <a className="btn btn-secondary" href={cancelHref}>{t("users.confirm.cancel")}</a>
        <button type="submit" className="btn btn-danger">
          {confirmLabel ?? t("users.confirm.delete")}
        </button>
      </form>
    </section>
  );
}
