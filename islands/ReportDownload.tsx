/**
 * A report download (spec 001 section 7, "Reports"): a link to the PDF that works without
 * JavaScript; with it (the plain script `ReportDownload.client.ts`), the button is disabled
 * while downloading, the PDF opens in a new tab (downloaded on iOS or when pop-ups are
 * blocked), a non-PDF or empty answer is an error (the translated message, an alert on the
 * list holding the link: an element marked `data-download-alerts`), and the blob URL is
 * revoked after 10 s. `{status}` in the error text is the answer's HTTP status (or the failure).
 */

/** Props of the island. */
export interface ReportDownloadProps {
  href: string;
  filename: string;
  label: string;
  busyLabel: string;
  errorText: string;
  className: string;
  testId: string;
  /** "download" saves the file in every browser (certificates); default: a new tab. */
  mode?: "tab" | "download";
}

/** The link. */
export default function ReportDownload(p: ReportDownloadProps) {
  return (
    <a className={p.className} href={p.href} download={p.filename} data-testid={p.testId}>
      {p.label}
    </a>
  );
}
