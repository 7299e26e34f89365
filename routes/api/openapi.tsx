/**
 * `GET /api/openapi.json` (admin, or an API key: it is a GET) and `GET /api/docs` (admin
 * page): the OpenAPI 3.1 document generated from the app's routes (`routes/_openapi_doc.ts`).
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "../_deps.ts";
import { requireApiRole, requireRole } from "../_session.ts";
import { appPage } from "../_page.tsx";
import { buildOpenApi, type OpenApiDocument } from "../_openapi_doc.ts";
import { ApiDocsPage } from "../../components/api_docs/ApiDocsPage.tsx";

/** The document's version: the API's. */
const API_VERSION = "1.0.0";

/** The routes (mount at `/api`); `routes` answers the whole app's routes once it is built. */
export function openApiRoutes(
  deps: Deps,
  routes: () => Parameters<typeof buildOpenApi>[0],
): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  let doc: OpenApiDocument | null = null;
  const document = () => (doc ??= buildOpenApi(routes(), API_VERSION));
  app.get("/openapi.json", requireApiRole("admin"), (c) => c.json(document()));
  app.get("/docs", requireRole("admin"), (c) =>
    appPage(
      c,
      deps,
      c.var.t("api_keys.docs.title"),
      <ApiDocsPage t={c.var.t} doc={document()} />,
    ));
  return app;
}
