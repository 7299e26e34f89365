/**
 * GET /legal: the terms and the privacy notice, for everyone (the header's link without
 * JavaScript); GET /legal/dialog: the header's dialog with both, as an HTML fragment.
 */
import { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";
import { renderBarePage } from "./_page.tsx";
import { LegalPage } from "../components/LegalPage.tsx";
import type { LegalDoc } from "../core/legal.ts";
import { homeOf } from "../core/roles.ts";
import { termsDialogHtml } from "../components/legal/TermsDialog.tsx";

/** The Spanish legal document under `legal.{key}`. */
export function legalDoc(deps: Deps, key: "terms" | "privacy"): LegalDoc {
  const raw = deps.i18n.raw("es", `legal.${key}`) as LegalDoc | undefined;
  return raw ?? { title: key, sections: [] };
}

/** The legal page route, mounted at /legal. */
export function legalRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/", (c) => {
    const user = c.var.user;
    return renderBarePage(c, deps, c.var.t("auth.register.terms_title"), LegalPage, {
      terms: legalDoc(deps, "terms"),
      privacy: legalDoc(deps, "privacy"),
      back: user ? homeOf(user.role) : "/login",
    });
  });
  app.get("/dialog", (c) => {
    c.header("Cache-Control", "private, max-age=3600");
    return c.html(termsDialogHtml({
      t: c.var.t,
      terms: legalDoc(deps, "terms"),
      privacy: legalDoc(deps, "privacy"),
    }));
  });
  return app;
}
