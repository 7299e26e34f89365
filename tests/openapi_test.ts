/**
 * The OpenAPI 3.1 document: every route the app registers under `/api/` (and the session
 * calls under `/auth/`) is in it, with the body and query schemas its validators use; served at
 * `/api/openapi.json` and browsable at `/api/docs` for admins.
 */
import assert from "node:assert/strict";
import { account, call, testApp, testsWith } from "./_helpers.ts";
import { inputOf } from "../routes/_openapi_registry.ts";
import { openApiPath } from "../routes/_openapi_doc.ts";
import type { OpenApiDocument } from "../core/openapi.ts";

async function served() {
  const t = await testApp();
  const admin = await account(t, "admin");
  const res = await call(t, "GET", "/api/openapi.json", { token: admin.token });
  assert.equal(res.status, 200);
  return { t, admin, doc: (await res.json()) as OpenApiDocument };
}

/** `Deno.test` in a fresh {@link served}, closed however the test ends. */
const servedTest = testsWith(served, (w) => w.t.close());

servedTest(
  "every registered /api/ route is in the document, with its validators' schemas",
  ({ t, doc }) => {
    assert.equal(doc.openapi, "3.1.0");
    const missing: string[] = [];
    const noSchema: string[] = [];
    for (const r of t.app.routes) {
      if (r.method === "ALL" || !(r.path.startsWith("/api/") || r.path.startsWith("/auth/"))) {
        continue;
      }
      const op = doc.paths[openApiPath(r.path)]?.[r.method.toLowerCase()];
      if (!op) {
        missing.push(`${r.method} ${r.path}`);
        continue;
      }
      const input = inputOf(r.handler);
      if (input?.target === "json" && !op.requestBody) noSchema.push(`${r.method} ${r.path}`);
      if (input?.target === "query" && !op.parameters.some((p) => p.in === "query")) {
        noSchema.push(`${r.method} ${r.path} (query)`);
      }
    }
    assert.deepEqual(missing, [], "routes missing from the OpenAPI document");
    assert.deepEqual(noSchema, [], "validated routes without their schema");
    // Each path's template parameters are declared.
    for (const [path, methods] of Object.entries(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const op of Object.values(methods)) {
        const declared = op.parameters.filter((p) => p.in === "path").map((p) => p.name).sort();
        assert.deepEqual(declared, names, path);
      }
    }
  },
);

servedTest("the schemas are the routes' own: zones, the audit log, sign-in", ({ doc }) => {
  const zone = doc.paths["/api/zones"].post.requestBody?.content["application/json"].schema as {
    properties: Record<string, unknown>;
  };
  assert.ok("name" in zone.properties && "base_tariff" in zone.properties);
  const audit = doc.paths["/api/audit-log"].get.parameters.map((p) => p.name).sort();
  assert.deepEqual(audit, ["actor", "cursor", "kind", "limit", "object"]);
  const login = doc.paths["/auth/login"].post.requestBody?.content["application/json"]
    .schema as { properties: Record<string, unknown> };
  assert.deepEqual(Object.keys(login.properties).sort(), ["email", "password", "totp_code"]);
  assert.ok(doc.paths["/api/devices/{id}"].get, "path parameters in OpenAPI's form");
});

servedTest(
  "served to admins only; /api/docs lists the operations with no external asset",
  async ({ t, admin }) => {
    const tenant = await account(t, "user");
    const refused = await call(t, "GET", "/api/openapi.json", { token: tenant.token });
    assert.equal(refused.status, 403);
    await refused.body?.cancel();
    const anon = await call(t, "GET", "/api/openapi.json");
    assert.equal(anon.status, 401);
    await anon.body?.cancel();
    const page = await call(t, "GET", "/api/docs", { token: admin.token });
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /\/api\/zones\/\{id\}/);
    assert.match(html, /data-op="post_api_unified_billing_process"/);
    assert.doesNotMatch(html, /(src|href)="https?:\/\//, "no CDN");
    const tenantPage = await call(t, "GET", "/api/docs", { token: tenant.token });
    assert.equal(tenantPage.status, 302);
    await tenantPage.body?.cancel();
  },
);
