/**
 * The one formatter of dates, money and numbers for readers (pages, islands, PDFs, notices):
 * per language (es-MX, en-US, de-DE number and date conventions) and the business time zone (a
 * fixed UTC offset). Money is integer cents with the currency's symbol and code, as the spec
 * shows them ($, US$, €; spec 001 section 10): `$9,601.56 MXN`, `9.601,56 $ MXN`. Pure: Intl
 * only, no clock.
 */

/** The Intl locale of each portal language (Spanish as spoken in Mexico by default). */
const LOCALES: Readonly<Record<string, string>> = { es: "es-MX", en: "en-US", de: "de-DE" };

/** The symbol of each currency (USD as US$ so it is told from the peso's $). */
const SYMBOLS: Readonly<Record<string, string>> = { MXN: "$", USD: "US$", EUR: "€" };

/** The Intl locale of a portal language (`es` → `es-MX`); unknown languages read as Spanish. */
export function localeOf(language: string): string {
  return LOCALES[language] ?? LOCALES.es;
}

/** How readers of one language in one business time zone see dates, money and numbers. */
export interface Formatter {
  /** The portal language (`es`, `en`, `de`). */
  readonly language: string;
  /** Integer cents with symbol and code: `960156, "MXN"` → `$9,601.56 MXN` (de `9.601,56 $ MXN`). */
  money(cents: number, currency: string): string;
  /** A price in currency units with the precision it is stored with (2 to 4 decimals). */
  price(units: number, currency: string): string;
  /** `n` with exactly `digits` decimals: `(1234.5, 2)` → `1,234.50` (de `1.234,50`). */
  number(n: number, digits?: number): string;
  /** Energy with 2 decimals: `12.5` → `12.50 kWh`. */
  kwh(n: number): string;
  /** Power with 2 decimals: `1.5` → `1.50 kW`. */
  kw(n: number): string;
  /** A percentage with `digits` decimals, never `-0`: `(12.345, 1)` → `12.3 %`. */
  percent(n: number, digits?: number): string;
  /** A calendar date (`YYYY-MM-DD`) or a time (epoch ms, ISO text) in the business time zone, long. */
  date(value: string | number | null): string;
  /** A calendar date or a time as a short date: `28 nov 2026`, `Nov 28, 2026`. */
  shortDate(value: string | number | null): string;
  /** A time (epoch ms or ISO text) as the long date and `HH:MM` in the business time zone. */
  dateTime(value: string | number | null): string;
}

/** What a date is shown as when there is none. */
const NONE = "—";

/** A value's instant and whether it is a bare calendar date (no time zone shift then). */
function instant(value: string | number, offsetMinutes: number): number {
  if (typeof value === "number") return value + offsetMinutes * 60_000;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return Date.parse(`${value}T00:00:00Z`);
  return Date.parse(value) + offsetMinutes * 60_000;
}

/** Formatters built so far, by language and offset (they hold no state but their Intl objects). */
const built = new Map<string, Formatter>();

/** The formatter of `language` with dates in the zone `offsetMinutes` east of UTC. */
export function formatter(language: string, offsetMinutes = 0): Formatter {
  const key = `${language}/${offsetMinutes}`;
  let f = built.get(key);
  if (!f) built.set(key, f = build(language, offsetMinutes));
  return f;
}

function build(language: string, offsetMinutes: number): Formatter {
  const locale = localeOf(language);
  const fixed = new Map<number, Intl.NumberFormat>();
  const num = (n: number, digits: number) => {
    let f = fixed.get(digits);
    if (!f) {
      f = new Intl.NumberFormat(locale, {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      });
      fixed.set(digits, f);
    }
    const text = f.format(n);
    // A value that rounds to zero reads as zero, not "-0".
    return /^-0(?:[.,]0*)?$/.test(text) ? text.slice(1) : text;
  };
  const withCurrency = (amount: string, currency: string) => {
    const symbol = SYMBOLS[currency];
    if (!symbol) return `${amount} ${currency}`;
    if (language === "de") return `${amount} ${symbol} ${currency}`;
    return amount.startsWith("-")
      ? `-${symbol}${amount.slice(1)} ${currency}`
      : `${symbol}${amount} ${currency}`;
  };
  const long = new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
  const short = new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
  const dateWith = (f: Intl.DateTimeFormat) => (value: string | number | null) => {
    if (value === null || value === "") return NONE;
    const ms = instant(value, offsetMinutes);
    return Number.isNaN(ms) ? String(value) : f.format(ms);
  };
  const date = dateWith(long);
  return {
    language,
    money: (cents, currency) => withCurrency(num(Math.round(cents) / 100, 2), currency),
    price(units, currency) {
      const digits = Number.isInteger(Math.round(units * 1e6) / 1e4)
        ? 2
        : Math.min(4, String(Number(units.toFixed(4))).split(".")[1]?.length ?? 2);
      return withCurrency(num(units, Math.max(2, digits)), currency);
    },
    number: (n, digits = 2) => num(n, digits),
    kwh: (n) => `${num(n, 2)} kWh`,
    kw: (n) => `${num(n, 2)} kW`,
    percent: (n, digits = 0) => `${num(n, digits)} %`,
    date,
    shortDate: dateWith(short),
    dateTime(value) {
      if (value === null || value === "") return NONE;
      const ms = instant(value, offsetMinutes);
      if (Number.isNaN(ms)) return String(value);
      return `${long.format(ms)}, ${new Date(ms).toISOString().slice(11, 16)}`;
    },
  };
}

/** A translator as the pages hold it (`services/platform/i18n.ts`'s `Translate`). */
type Translate = (key: string, params?: Record<string, string | number>) => string;

/**
 * The formatter of the language a translator speaks (its `format.language` text, in
 * `locales/{lang}/format.json`), with dates in the zone `offsetMinutes` east of UTC.
 */
export function formatterOf(t: Translate, offsetMinutes = 0): Formatter {
  return formatter(t("format.language"), offsetMinutes);
}
