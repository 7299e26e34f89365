/**
 * WhatsApp through the WhatsApp Business Cloud API: a template message per kind (the worker
 * names it `portal_<kind>`, approved in the business account, body parameters in the order the mail's
 * values have), `POST {WHATSAPP_API_URL}/{phone-number-id}/messages` with the bearer token.
 * Written by hand: it is one JSON call, and no maintained client library exists for Deno.
 * Rate limits (HTTP 429, error codes 4, 80007, 130429, 131056) and server errors retry; other
 * refusals (an unknown template, a number not on WhatsApp) fail the message.
 */
import type { SendOutcome } from "../../core/messages.ts";
import type { Language } from "../../core/roles.ts";
import type { WhatsAppSettings } from "./settings.ts";

/** A template message to one phone. */
export interface WhatsAppMessage {
  /** E.164 (`+5215512345678`). */
  to: string;
  template: string;
  language: Language;
  values: string[];
}

/** Something that sends WhatsApp template messages. */
export interface WhatsAppSender {
  send(m: WhatsAppMessage): Promise<SendOutcome>;
}

const LANGUAGE_CODES: Record<Language, string> = { es: "es_MX", en: "en_US", de: "de" };
const RATE_LIMIT_CODES = new Set([4, 80007, 130429, 131056]);

/** The Cloud API's error answer. */
interface GraphError {
  error?: { message?: string; code?: number; error_subcode?: number };
}

/** A sender for the Cloud API at `settings.apiUrl`. */
export function createWhatsAppSender(settings: WhatsAppSettings): WhatsAppSender {
  return {
    async send(m) {
      const body = {
        messaging_product: "whatsapp",
        to: m.to.replace(/[^\d]/g, ""),
        type: "template",
        template: {
          name: m.template,
          language: { code: LANGUAGE_CODES[m.language] },
          ...(m.values.length > 0
            ? {
              components: [{
                type: "body",
                parameters: m.values.map((text) => ({ type: "text", text })),
              }],
            }
            : {}),
        },
      };
      let res: Response;
      try {
        res = await fetch(`${settings.apiUrl}/${settings.phoneNumberId}/messages`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${settings.token}`,
            "content-type": "application/json",
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
      } catch (e) {
        return { ok: false, permanent: false, reason: `WhatsApp unreachable: ${e}` };
      }
      const json = await res.json().catch(() => ({})) as GraphError;
      if (res.ok) return { ok: true };
      const code = json.error?.code;
      const reason = `WhatsApp ${res.status}${code ? ` (${code})` : ""}: ${
        json.error?.message ?? res.statusText
      }`;
      const retryAfter = Number(res.headers.get("retry-after"));
      const limited = res.status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code));
      if (limited || res.status >= 500 || res.status === 401) {
        return {
          ok: false,
          permanent: false,
          reason,
          ...(retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
        };
      }
      return { ok: false, permanent: true, reason };
    },
  };
}
