/** The shape of the OpenAPI 3.1 document the portal serves (built by `routes/_openapi_doc.ts`). */

/** One operation of the document. */
export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: { "application/json": { schema: object } } };
  responses: Record<string, { description: string; content?: object }>;
  security: object[];
}

export interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: object;
}

/** The document's shape (what the tests and the docs page read). */
export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: object;
}
