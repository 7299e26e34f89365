/** Formatting for the users screens. */

/** The time zone dates are shown in (the portal's operators are in Mexico). */
export const DISPLAY_TIME_ZONE = "America/Mexico_City";

const LOCALES: Record<string, string> = { es: "es-MX", en: "en-US", de: "de-DE" };

/** A date (epoch ms) as a short, language-appropriate date. */
export function formatDate(ms: number, lang: string): string {
  return new Intl.DateTimeFormat(LOCALES[lang] ?? "es-MX", {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: DISPLAY_TIME_ZONE,
  }).format(new Date(ms));
}
