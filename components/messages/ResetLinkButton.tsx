/** "Send reset link" on an account of the users list (issue 28): a POST form, no JavaScript. */
import type { Translate } from "../../services/platform/i18n.ts";

/** The button (only for active accounts: an inactive one cannot sign in). */
export function ResetLinkButton({ t, id, active }: { t: Translate; id: number; active: boolean }) {
  if (!active) return null;
  return (
    <form method="post" action={`/admin/messages/reset-link/${id}`}>
      <button type="submit" className="btn btn-sm btn-secondary" data-testid="send-reset-link">
        {t("messages.reset.admin_send")}
      </button>
    </form>
  );
}
