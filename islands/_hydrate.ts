/** Browser side of a React island: hydrate every placed island of one component. */
import { type ComponentType, createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import { islandProps } from "./_mount.ts";
import { clientLog } from "./client_log.ts";

/** Hydrates each `[data-island=name]` element with its JSON props and identifier prefix. */
export function hydrateIslands(name: string, component: ComponentType<Record<string, unknown>>) {
  clientLog();
  for (const el of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    hydrateRoot(el, createElement(component, islandProps<Record<string, unknown>>(el)), {
      identifierPrefix: el.dataset.prefix,
    });
  }
}
