/**
 * Refreshes the parts of a page marked `data-live="{name}"` every `seconds` (spec 001 section 9:
 * the tenant dashboard, the owner's dashboard and unit page poll every 30 s): it fetches the
 * page again and swaps those parts in, through `usePoll` (paused while the tab is hidden). A
 * failed refresh shows the error text with a Retry button; the next success clears it.
 */
import { usePoll } from "./use_poll.ts";

/** Props of the island. */
export interface LiveRefreshProps {
  seconds: number;
  errorText: string;
  retry: string;
}

/** Fetches the page again and swaps in its live parts. */
async function swapLiveParts(signal: AbortSignal): Promise<void> {
  const res = await fetch(location.href, { credentials: "same-origin", signal });
  if (!res.ok) throw new Error(String(res.status));
  const doc = new DOMParser().parseFromString(await res.text(), "text/html");
  if (signal.aborted) return;
  for (const el of document.querySelectorAll<HTMLElement>("[data-live]")) {
    const next = doc.querySelector(`[data-live="${el.dataset.live}"]`);
    if (next) el.innerHTML = next.innerHTML;
  }
  document.body.dataset.refreshed = String(Date.now());
}

/** The refresher (renders nothing until a refresh fails). */
export default function LiveRefresh({ seconds, errorText, retry }: LiveRefreshProps) {
  const { error, refresh } = usePoll(swapLiveParts, { intervalMs: seconds * 1000 });
  if (!error) return null;
  return (
    <div className="alert alert-error" role="alert">
      {errorText}{" "}
      <button type="button" className="btn btn-sm btn-secondary" onClick={refresh}>
        {retry}
      </button>
    </div>
  );
}
