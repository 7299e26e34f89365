/**
 * Browser side of ReportDownload (plain script): the link fetches the PDF itself, shows the
 * busy label meanwhile, and opens a non-empty PDF in a new tab (spec 001, reports: "opens in a
 * new tab, or downloads on mobile Safari or when the popup is blocked"); the blob URL is
 * revoked after 10 s. Anything else (not ok, not a PDF, empty) is the error text: an alert at
 * the top of the list the link is in (`[data-download-alerts]`), else next to the link.
 */
import type { ReportDownloadProps } from "./ReportDownload.tsx";
import { logFailedFetch } from "./client_log.ts";

/** Milliseconds before the blob URL of a download is revoked. */
const REVOKE_AFTER_MS = 10_000;

/** iOS (its Safari, and every iOS browser is Safari's engine): a new tab of a blob fails there. */
function mustDownload(): boolean {
  const ua = navigator.userAgent;
  return /iP(hone|ad|od)/.test(ua) ||
    (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

/** Saves the file at `url` as `filename` (a download). */
function save(url: string, filename: string) {
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** A failed download: the HTTP status, or null when the portal was not reached. */
class Failed extends Error {
  constructor(readonly status: number | null, message: string) {
    super(message);
  }
}

/**
 * Fetches the file; throws the spec's texts for a failure (not shown: the error text is). A
 * report must be a PDF; another file (`pdf` false) only not empty.
 */
async function fetchFile(href: string, pdf: boolean): Promise<Blob> {
  const res = await fetch(href, { credentials: "same-origin" }).catch(() => {
    throw new Failed(null, "Failed to fetch");
  });
  if (!res.ok) {
    logFailedFetch(res.status, href.split("?")[0], "ReportDownload");
    throw new Failed(res.status, `HTTP error! status: ${res.status}`);
  }
  if (pdf && !(res.headers.get("content-type") ?? "").includes("application/pdf")) {
    throw new Failed(res.status, "Server did not return a PDF file");
  }
  const blob = await res.blob();
  if (blob.size === 0) throw new Failed(res.status, "Received empty PDF file");
  return blob;
}

/** Makes the server-rendered link in `root` open the PDF through `fetch`. */
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
    // The tab is opened now, within the click, or a pop-up blocker would stop it later.
    const tab = p.mode === "download" || mustDownload() ? null : globalThis.open("", "_blank");
    try {
      const url = URL.createObjectURL(await fetchFile(p.href, p.mode !== "download"));
      if (tab && !tab.closed) {
        tab.opener = null;
        tab.location.href = url;
      } else save(url, p.filename);
      setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
    } catch (e) {
      tab?.close();
      const status = e instanceof Failed && e.status !== null ? String(e.status) : String(e);
      const list = root.closest("[data-download-alerts]");
      error = document.createElement(list ? "div" : "span");
      error.className = list ? "alert alert-error" : "field-error";
      error.setAttribute("role", "alert");
      error.dataset.testid = "download-error";
      error.textContent = p.errorText.replace("{status}", status);
      if (list) list.prepend(error);
      else link.after(error);
    } finally {
      busy = false;
      link.removeAttribute("aria-disabled");
      link.textContent = p.label;
    }
  });
}
