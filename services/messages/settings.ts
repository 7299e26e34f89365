/**
 * How messages leave the portal, from the environment: `SMTP_URL` (`smtp://user:pass@host:587`,
 * STARTTLS when the server offers it; `smtps://…:465`, TLS from the start) and `MAIL_FROM`;
 * without `SMTP_URL` each mail is written as an `.eml` file under `DATA_DIR/outbox/`.
 * WhatsApp's Cloud API when `WHATSAPP_TOKEN` and `WHATSAPP_PHONE_NUMBER_ID` are set.
 */

/** The messages' settings. */
export interface MessageSettings {
  /** The SMTP server, or null: mails are written to {@link MessageSettings.outboxDir}. */
  smtpUrl: string | null;
  /** The sender of every mail. */
  mailFrom: string;
  /** Where mails are written when there is no SMTP server. */
  outboxDir: string;
  /** WhatsApp Business Cloud API, or null when not configured. */
  whatsapp: WhatsAppSettings | null;
}

/** WhatsApp Business Cloud API settings. */
export interface WhatsAppSettings {
  token: string;
  phoneNumberId: string;
  /** The Graph API's base with its version, e.g. `https://graph.facebook.com/v21.0`. */
  apiUrl: string;
}

/** A setting that makes no sense; the portal does not start with it. */
export class MessageSettingsError extends Error {}

/** Reads the settings from `env`; throws {@link MessageSettingsError} on a bad value. */
export function loadMessageSettings(env: Record<string, string | undefined>): MessageSettings {
  const dataDir = (env.DATA_DIR ?? "./data").replace(/\/+$/, "") || ".";
  const smtp = env.SMTP_URL?.trim() || null;
  if (smtp) {
    let url: URL;
    try {
      url = new URL(smtp);
    } catch {
      throw new MessageSettingsError("SMTP_URL must be a URL such as smtp://user:pass@host:587");
    }
    if (url.protocol !== "smtp:" && url.protocol !== "smtps:") {
      throw new MessageSettingsError("SMTP_URL must start with smtp:// or smtps://");
    }
  }
  const token = env.WHATSAPP_TOKEN?.trim() || null;
  const phone = env.WHATSAPP_PHONE_NUMBER_ID?.trim() || null;
  if (!token !== !phone) {
    throw new MessageSettingsError(
      "WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID must be set together",
    );
  }
  return {
    smtpUrl: smtp,
    mailFrom: env.MAIL_FROM?.trim() || "Energy Portal <no-reply@localhost>",
    outboxDir: `${dataDir}/outbox`,
    whatsapp: token && phone
      ? {
        token,
        phoneNumberId: phone,
        apiUrl: (env.WHATSAPP_API_URL?.trim() || "https://graph.facebook.com/v21.0")
          .replace(/\/+$/, ""),
      }
      : null,
  };
}
