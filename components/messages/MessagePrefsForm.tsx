/**
 * The messages card of Settings (issue 28): which messages the portal sends the account, the
 * WhatsApp opt-in (with the account's phone), and a warning when the address refuses mail. Its
 * own form (`POST <settings>/messages`), so it saves without the profile's password fields.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { PrefsView } from "../../services/messages/prefs.ts";
import { Card } from "../kit/mod.ts";

/** Props of {@link MessagePrefsForm}. */
export interface MessagePrefsFormProps {
  t: Translate;
  /** Where the form posts. */
  action: string;
  prefs: PrefsView;
  email: string;
  phone: string;
  /** Whether WhatsApp is configured on this portal. */
  whatsapp: boolean;
  saved?: boolean;
}

/** One checkbox per kind of message, the WhatsApp opt-in, Save. */
export function MessagePrefsForm(p: MessagePrefsFormProps) {
  const { t } = p;
  const M = (k: string, params?: Record<string, string>) => t(`messages.prefs.${k}`, params);
  return (
    <form method="post" action={p.action} className="form" data-testid="message-prefs">
      <Card title={M("title")} headingId="messages">
        {p.saved && <div className="alert alert-success" role="status">{M("saved")}</div>}
        {p.prefs.undeliverable !== null && (
          <div className="alert alert-warning" role="alert">
            {M("undeliverable", { email: p.email })}
          </div>
        )}
        <p className="hint">{M("intro", { email: p.email })}</p>
        <fieldset style={{ display: "grid", gap: "0.6rem", border: 0, padding: 0 }}>
          <legend className="visually-hidden">{M("title")}</legend>
          {p.prefs.kinds.map(({ kind, on }) => (
            <label key={kind} className="check">
              <input type="checkbox" name="kind" value={kind} defaultChecked={on} />{" "}
              {t(`messages.kinds.${kind}`)}
            </label>
          ))}
          {p.whatsapp && (p.phone
            ? (
              <label className="check">
                <input
                  type="checkbox"
                  name="whatsapp"
                  value="on"
                  defaultChecked={p.prefs.whatsapp}
                />{" "}
                {M("whatsapp", { phone: p.phone })}
              </label>
            )
            : <p className="hint">{M("whatsapp_no_phone")}</p>)}
        </fieldset>
        <div className="form-actions">
          <button type="submit" className="btn btn-secondary">{M("save")}</button>
        </div>
      </Card>
    </form>
  );
}
