/** Sections of the sidebar that later work fills in: they answer with a plain notice. */
import type { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { appPage, pageUser } from "./_page.tsx";
import { ComingSoon } from "../components/ComingSoon.tsx";
import { homeOf } from "../core/roles.ts";

/** Registers `GET path` for each `[path, titleKey]`, rendering the coming-soon notice. */
export function comingSoon<E extends AppEnv>(
  app: Hono<E>,
  deps: Deps,
  pages: [string, string][],
) {
  for (const [path, titleKey] of pages) {
    app.get(path, (c) => {
      const t = c.var.t;
      const title = t(titleKey);
      return appPage(
        c,
        deps,
        title,
        <ComingSoon t={t} title={title} home={homeOf(pageUser(c).role)} />,
      );
    });
  }
}
