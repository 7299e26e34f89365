/**
 * CSV text (RFC 4180): a header row and data rows, comma-separated, CRLF line ends, UTF-8.
 *
 * Spreadsheets run a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a
 * formula, so a name like `=HYPERLINK("…","Pay here")` would become a live link in the admin's
 * file. Every text cell that starts with one of those gets a leading `'` (OWASP's CSV injection
 * advice), which spreadsheets show as text. Numbers are data, not formulas: a cell given as a
 * `number`, or as a {@link CsvNumber} (a figure the portal formatted itself, money with two
 * decimals, kWh), is written as it is, a minus sign and all; only the portal makes those, from
 * numbers, so no user's text takes that path. A figure written with its currency
 * (`-12.50 MXN`) is text and is neutralized like any other.
 */

/** A figure the portal formatted from a number (see {@link csvNumber}). */
class CsvNumber {
  readonly #text: string;
  private constructor(text: string) {
    this.#text = text;
  }
  /** `value` with `digits` decimals. */
  static of(value: number, digits: number): CsvNumber {
    return new CsvNumber(value.toFixed(digits));
  }
  toString(): string {
    return this.#text;
  }
}

/** `value` with `digits` decimals, written as a number (a leading minus sign kept). */
export const csvNumber = (value: number, digits: number): CsvNumber => CsvNumber.of(value, digits);

/** One cell: text, or a number. */
export type CsvCell = string | number | CsvNumber;

/** The first characters that make a spreadsheet read a cell as a formula (OWASP). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text that cannot start a formula: a leading `'` when it could. */
function neutralized(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One field, quoted when it holds a comma, a quote or a line break (quotes doubled). */
function field(v: CsvCell): string {
  const s = typeof v === "string" ? neutralized(v) : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Rows as CSV text, with a byte-order mark so spreadsheets read UTF-8 accents right. */
export function csvText(rows: readonly (readonly CsvCell[])[]): string {
  return "\uFEFF" + rows.map((r) => r.map(field).join(",")).join("\r\n") + "\r\n";
}

/** A CSV download of `rows` named `filename`. */
export function csvDownload(filename: string, rows: readonly (readonly CsvCell[])[]): Response {
  return new Response(csvText(rows), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
    },
  });
}
