/**
 * A report download (spec 001 section 7, "Reports"): a link to the PDF that works without
 * JavaScript; with it, the button is disabled while downloading, a non-PDF or empty answer is
 * an error (the translated message), and the blob URL is revoked after 10 s.
 */
import { type MouseEvent, useState } from "react";

/** Props of the island. */
export interface ReportDownloadProps {
  href: string;
  filename: string;
  label: string;
  busyLabel: string;
  errorText: string;
  className: string;
  testId: string;
}

/** Milliseconds before the blob URL of a download is revoked. */
export const REVOKE_AFTER_MS = 10_000;

/** The link. */
export default function ReportDownload(p: ReportDownloadProps) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  const click = async (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setFailed(false);
    try {
      const res = await fetch(p.href, { credentials: "same-origin" });
      if (!res.ok) throw new Error(`HTTP error! status: ${res.status}`);
      if (!(res.headers.get("content-type") ?? "").includes("application/pdf")) {
        throw new Error("Server did not return a PDF file");
      }
      const blob = await res.blob();
      if (blob.size === 0) throw new Error("Received empty PDF file");
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = p.filename;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <a
        className={p.className}
        href={p.href}
        download={p.filename}
        data-testid={p.testId}
        aria-disabled={busy || undefined}
        onClick={click}
      >
        {busy ? p.busyLabel : p.label}
      </a>
      {failed && <span className="field-error" role="alert">{p.errorText}</span>}
    </>
  );
}
