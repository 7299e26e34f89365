/**
 * Browser side of LiveRefresh (plain script): fetches the page again every `seconds` and
 * swaps in its `data-live` parts, through `startPoll` (paused while the tab is hidden). A
 * failed refresh shows the error text with a Retry button; the next success clears it.
 */
import type { LiveRefreshProps } from "./LiveRefresh.tsx";
import { browserEnv, startPoll } from "./poll.ts";

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

/** Starts the refresher; `root` holds the error box while a refresh fails. */
export function mount(root: HTMLElement, { seconds, errorText, retry }: LiveRefreshProps) {
  const poll = startPoll(swapLiveParts, { intervalMs: seconds * 1000 }, browserEnv, (error) => {
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
