/** CSV text (RFC 4180): a header row and data rows, comma-separated, CRLF line ends, UTF-8. */

/** One field, quoted when it holds a comma, a quote or a line break (quotes doubled). */
function field(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Rows as CSV text, with a byte-order mark so spreadsheets read UTF-8 accents right. */
export function csvText(rows: readonly (readonly (string | number)[])[]): string {
  return "\uFEFF" + rows.map((r) => r.map(field).join(",")).join("\r\n") + "\r\n";
}

/** A CSV download of `rows` named `filename`. */
export function csvDownload(
  filename: string,
  rows: readonly (readonly (string | number)[])[],
): Response {
  return new Response(csvText(rows), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
    },
  });
}
