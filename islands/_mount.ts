/**
 * Browser side of a plain-script island (no React): runs its `mount` on every placed
 * element with the element's JSON props, then marks the element `data-ready`.
 */
import { clientLog } from "./client_log.ts";

/** Reads the JSON props of a placed island element. */
export function islandProps<P>(el: HTMLElement): P {
  const propsEl = document.getElementById(el.dataset.props ?? "");
  return (propsEl ? JSON.parse(propsEl.textContent || "{}") : {}) as P;
}

/** Mounts every `[data-island=name]` element with `mount` (and starts the page's log). */
export function mountIslands<P>(name: string, mount: (el: HTMLElement, props: P) => void) {
  clientLog();
  for (const el of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    mount(el, islandProps<P>(el));
    el.dataset.ready = "";
  }
}
