/**
 * The API's documentation page (`/api/docs`): every operation of the OpenAPI document by area,
 * its parameters and the JSON Schema of its body, server-rendered (no script, no CDN).
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { OpenApiDocument, Operation } from "../../core/openapi.ts";
import { Card, PageHeader } from "../kit/mod.ts";

/** Props of {@link ApiDocsPage}. */
export interface ApiDocsPageProps {
  t: Translate;
  doc: OpenApiDocument;
}

/** The page. */
export function ApiDocsPage({ t, doc }: ApiDocsPageProps) {
  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags[0];
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, op }]);
    }
  }
  return (
    <>
      <PageHeader
        title={t("api_keys.docs.title")}
        subtitle={t("api_keys.docs.subtitle")}
        actions={<a className="btn" href="/api/openapi.json">openapi.json</a>}
      />
      {[...byTag].map(([tag, ops]) => (
        <Card key={tag} title={tag} data-testid={`api-tag-${tag}`}>
          {ops.map(({ method, path, op }) => (
            <details key={`${method} ${path}`} className="api-op" data-op={op.operationId}>
              <summary>
                <code className="api-method">{method.toUpperCase()}</code>{" "}
                <code style={{ overflowWrap: "anywhere" }}>{path}</code>
              </summary>
              {op.parameters.length > 0 && (
                <ul>
                  {op.parameters.map((p) => (
                    <li key={`${p.in} ${p.name}`}>
                      <code>{p.name}</code> ({p.in}
                      {p.required ? `, ${t("api_keys.docs.required")}` : ""})
                    </li>
                  ))}
                </ul>
              )}
              {op.requestBody && (
                <pre className="mono" style={{ overflowX: "auto", fontSize: "0.8rem" }}>
                  {JSON.stringify(op.requestBody.content["application/json"].schema, null, 2)}
                </pre>
              )}
            </details>
          ))}
        </Card>
      ))}
    </>
  );
}
