/**
 * The schemas the routes validate with, by validator: `jsonInput` and `queryInput`
 * (`routes/_validate.ts`) record each middleware they make here, so the OpenAPI document
 * (`routes/api/openapi.ts`) finds a route's body and query schemas among the handlers Hono
 * lists for it (`app.routes`), without the routes declaring anything twice.
 */
import type { z } from "zod";

/** What a validator checks: the JSON body or the query, with its schema. */
export interface RecordedInput {
  target: "json" | "query";
  schema: z.ZodType;
}

const recorded = new WeakMap<object, RecordedInput>();

/** Records that the middleware `handler` validates `target` with `schema`; answers it. */
export function recordInput<H extends object>(
  handler: H,
  target: RecordedInput["target"],
  schema: z.ZodType,
): H {
  recorded.set(handler, { target, schema });
  return handler;
}

/** What `handler` validates, if it is a recorded validator. */
export function inputOf(handler: object): RecordedInput | undefined {
  return recorded.get(handler);
}
