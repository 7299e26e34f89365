/** Formatting for the users screens. */

/** The time zone dates are shown in (the portal's operators are in Mexico). */
export const DISPLAY_TIME_ZONE = "America/Mexico_City";

const LOCALES: Record<string, string> = { es: "es-MX", en: "en-US", de: "de-DE" };

/** The date formats made so far, one per locale (making one costs more than formatting). */
const DATE_FORMATS = new Map<string, Intl.DateTimeFormat>();

/** A date (epoch ms) as a short, language-appropriate date. */
export function formatDate(ms: number, lang: string): string {
  const locale = LOCALES[lang] ?? "es-MX";
  let f = DATE_FORMATS.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      year: "numeric",
      month: "short",
      day: "numeric",
      timeZone: DISPLAY_TIME_ZONE,
    });
    DATE_FORMATS.set(locale, f);
  }
  return f.format(new Date(ms));
}
