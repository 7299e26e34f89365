/** Browser side of the island mechanism: hydrate every placed island of one component. */
import { type ComponentType, createElement } from "react";
import { hydrateRoot } from "react-dom/client";

/** Hydrates each `[data-island=name]` element with its JSON props and identifier prefix. */
export function hydrateIslands(name: string, component: ComponentType<Record<string, unknown>>) {
  for (const el of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    const propsEl = document.getElementById(el.dataset.props ?? "");
    const props = propsEl ? JSON.parse(propsEl.textContent || "{}") : {};
    hydrateRoot(el, createElement(component, props), {
      identifierPrefix: el.dataset.prefix,
    });
  }
}
