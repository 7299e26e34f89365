/**
 * Refreshes the parts of a page marked `data-live="{name}"` every `seconds` (spec 001 section 9:
 * the tenant dashboard polls every 30 s): it fetches the page again and swaps those parts in. A
 * failed refresh shows the error text with a Retry button; the next success clears it.
 */
import { useCallback, useEffect, useState } from "react";

/** Props of the island. */
export interface LiveRefreshProps {
  seconds: number;
  errorText: string;
  retry: string;
}

/** The refresher (renders nothing until a refresh fails). */
export default function LiveRefresh({ seconds, errorText, retry }: LiveRefreshProps) {
  const [failed, setFailed] = useState(false);

  const refresh = useCallback(async () => {
    try {
      const res = await fetch(location.href, { credentials: "same-origin" });
      if (!res.ok) throw new Error(String(res.status));
      const doc = new DOMParser().parseFromString(await res.text(), "text/html");
      for (const el of document.querySelectorAll<HTMLElement>("[data-live]")) {
        const next = doc.querySelector(`[data-live="${el.dataset.live}"]`);
        if (next) el.innerHTML = next.innerHTML;
      }
      document.body.dataset.refreshed = String(Date.now());
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  useEffect(() => {
    const id = setInterval(() => {
      if (document.visibilityState === "visible") refresh();
    }, seconds * 1000);
    return () => clearInterval(id);
  }, [seconds, refresh]);

  if (!failed) return null;
  return (
    <div className="alert alert-error" role="alert">
      {errorText}{" "}
      <button type="button" className="btn btn-sm btn-secondary" onClick={refresh}>
        {retry}
      </button>
    </div>
  );
}
