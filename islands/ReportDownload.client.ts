/**
 * Browser side of ReportDownload (plain script): the link fetches the PDF itself, shows the
 * busy label meanwhile, saves a non-empty PDF under the file name, and shows the error text
 * for anything else; the blob URL is revoked after 10 s.
 */
import type { ReportDownloadProps } from "./ReportDownload.tsx";

/** Milliseconds before the blob URL of a download is revoked. */
const REVOKE_AFTER_MS = 10_000;

/** Makes the server-rendered link in `root` download through `fetch`. */
export function mount(root: HTMLElement, p: ReportDownloadProps) {
  const link = root.querySelector("a");
  if (!link) return;
  let busy = false;
  let error: HTMLElement | null = null;
  link.addEventListener("click", async (e) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    if (busy) return;
    busy = true;
    link.setAttribute("aria-disabled", "true");
    link.textContent = p.busyLabel;
    error?.remove();
    error = null;
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
      error = document.createElement("span");
      error.className = "field-error";
      error.setAttribute("role", "alert");
      error.textContent = p.errorText;
      link.after(error);
    } finally {
      busy = false;
      link.removeAttribute("aria-disabled");
      link.textContent = p.label;
    }
  });
}
