/**
 * Browser side of LiveRefresh (plain script): asks for the page again every `seconds` with the
 * ETag it has (`If-None-Match`): a 304 leaves the page as it is, a new page has its `data-live`
 * parts swapped in, through `startPoll` (paused while the tab is hidden). A failed refresh
 * shows the error text with a Retry button; the next success clears it.
 */
import type { LiveRefreshProps } from "./LiveRefresh.tsx";
import { browserEnv, startPoll } from "./poll.ts";
import { pageEtag, type Revalidate, revalidating } from "./revalidate.ts";

/** Asks for the page again and swaps in its live parts when it changed. */
async function swapLiveParts(get: Revalidate, signal: AbortSignal): Promise<void> {
  const res = await get(location.href, { signal });
  if (res === null) return; // unchanged
  if (!res.ok) throw new Error(String(res.status));
  const doc = new DOMParser().parseFromString(await res.text(), "text/html");
  if (signal.aborted) return;
  for (const el of document.querySelectorAll<HTMLElement>("[data-live]")) {
    const next = doc.querySelector(`[data-live="${el.dataset.live}"]`);
    if (next) el.innerHTML = next.innerHTML;
  }
  document.body.dataset.refreshed = String(Date.now());
}

/** Starts the refresher; `root` holds the error box while a refresh fails. */
export function mount(root: HTMLElement, { seconds, errorText, retry }: LiveRefreshProps) {
  const get = revalidating(pageEtag());
  const refresh = (signal: AbortSignal) => swapLiveParts(get, signal);
  const poll = startPoll(refresh, { intervalMs: seconds * 1000 }, browserEnv, (error) => {
    if (!error) return root.replaceChildren();
    if (root.firstChild) return;
    const box = document.createElement("div");
    box.className = "alert alert-error";
    box.setAttribute("role", "alert");
    const btn = document.createElement("button");
    btn.type = "button";
    btn.className = "btn btn-sm btn-secondary";
    btn.textContent = retry;
    btn.onclick = () => poll.refresh();
    box.append(`${errorText} `, btn);
    root.append(box);
  });
}
