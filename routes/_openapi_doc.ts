/**
 * The OpenAPI 3.1 document of the JSON API, generated from the app itself: every route Hono
 * registered under `/api/` and `/auth/` (`app.routes`), with the body and query schemas its
 * validators recorded (`routes/_openapi_registry.ts`) turned into JSON Schema by zod's own
 * `z.toJSONSchema` (their input side: what a client sends).
 */
import { z } from "zod";
import { inputOf, type RecordedInput } from "./_openapi_registry.ts";
import type { OpenApiDocument, Operation, Parameter } from "../core/openapi.ts";

export type { OpenApiDocument };

/** A route as Hono lists it. */
interface RouteLike {
  method: string;
  path: string;
  handler: object;
}

/** Whether a route belongs in the document: the JSON API and the session calls. */
export const DOCUMENTED = (path: string) => path.startsWith("/api/") || path.startsWith("/auth/");

/** A Hono path as OpenAPI writes it: `/api/devices/:id` → `/api/devices/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)(\{[^}]*\})?/g, "{$1}");
}

/** JSON Schema of a recorded schema's input (a schema zod cannot express becomes `{}`). */
function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  try {
    const { $schema: _s, ...rest } = z.toJSONSchema(schema, {
      io: "input",
      unrepresentable: "any",
    }) as Record<string, unknown>;
    return rest;
  } catch {
    return {};
  }
}

/** The query parameters of a query schema (an object's properties). */
function queryParameters(schema: z.ZodType): Parameter[] {
  const js = jsonSchemaOf(schema);
  const props = (js.properties ?? {}) as Record<string, object>;
  const required = new Set((js.required ?? []) as string[]);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: s,
  }));
}

const ERROR = {
  description: "Refused: `{message, errors}` (400), or `{message}` (401, 403, 404, 409, 413, 429)",
  content: {
    "application/json": {
      schema: {
        type: "object",
        properties: { message: { type: "string" }, errors: { type: "object" } },
        required: ["message"],
      },
    },
  },
};

/** Builds the document from the app's routes. */
export function buildOpenApi(routes: readonly RouteLike[], version: string): OpenApiDocument {
  const inputs = new Map<string, RecordedInput[]>();
  const ops = new Map<string, { method: string; path: string }>();
  for (const r of routes) {
    if (r.method === "ALL" || !DOCUMENTED(r.path)) continue;
    const id = `${r.method} ${r.path}`;
    ops.set(id, { method: r.method, path: r.path });
    const input = inputOf(r.handler);
    if (input) inputs.set(id, [...(inputs.get(id) ?? []), input]);
  }
  const paths: OpenApiDocument["paths"] = {};
  for (const [id, { method, path }] of [...ops].sort(([a], [b]) => a < b ? -1 : 1)) {
    const key = openApiPath(path);
    const recorded = inputs.get(id) ?? [];
    const body = recorded.find((i) => i.target === "json");
    const query = recorded.find((i) => i.target === "query");
    const pathParams = [...path.matchAll(/:(\w+)/g)].map((m): Parameter => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const segments = path.split("/").filter(Boolean);
    const op: Operation = {
      operationId: `${method.toLowerCase()}_${
        segments.map((s) => s.replace(/^:/, "by_").replace(/[^A-Za-z0-9]+/g, "_")).join("_")
      }`,
      tags: [segments[0] === "api" ? segments[1] ?? "api" : segments[0]],
      summary: `${method} ${key}`,
      parameters: [...pathParams, ...(query ? queryParameters(query.schema) : [])],
      responses: { "200": { description: "OK" }, "4XX": ERROR },
      security: path.startsWith("/api/webhooks")
        ? [{ webhookBasic: [] }]
        : [{ bearer: [] }, { apiKey: [] }, { cookie: [] }],
    };
    if (body) {
      op.requestBody = {
        required: true,
        content: { "application/json": { schema: jsonSchemaOf(body.schema) } },
      };
    }
    paths[key] ??= {};
    paths[key][method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Energy portal API",
      version,
      description: "Generated from the routes and the schemas they validate with. Money is in " +
        "currency units with at most two decimals. Authenticate with `Authorization: Bearer` " +
        "(a token from `POST /auth/login`, or an API key `pk_…` within its scope).",
    },
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
        apiKey: { type: "http", scheme: "bearer", description: "An API key `pk_…`" },
        cookie: { type: "apiKey", in: "cookie", name: "token" },
        webhookBasic: { type: "http", scheme: "basic" },
      },
    },
  };
}
