/**
 * Validation at the edge, in one style (issue 26): a route names the zod schema of its query
 * (`@hono/zod-validator`) or of its JSON body ({@link jsonInput}), its handler reads the parsed,
 * typed input with `c.req.valid("query" | "json")`, and the services take that input as it is.
 * A failure is refused by ONE hook ({@link refusalOf}) as an invalid-input {@link Refusal},
 * which `routes/_refusal.tsx` answers 400 `{message, errors}` translated, as the API always has.
 *
 * The body is read by `readJson` (its size limit, 413, and its content type, 415), not by
 * hono's `validator("json")`, which reads bodies of any size; its parsed value is validated here
 * and stored as the request's validated `json`.
 */
import { recordInput } from "./_openapi_registry.ts";
import { zValidator } from "@hono/zod-validator";
import type { Context, MiddlewareHandler } from "hono";
import { z } from "zod";
import type { FieldErrors } from "../core/schemas.ts";
import { invalid, Refusal } from "../services/refusal.ts";
import type { AppEnv } from "./_deps.ts";
import { badJson, readJson } from "./_http.ts";

/** How a route words its refusal of bad input. */
export interface Rules {
  /** Locale key of the message; by default the first field error's. */
  message?: string;
  /**
   * Which field errors the answer names: all of them (default), the first, none, or those of a
   * field (`paths`: not an issue of the input as a whole, `_`).
   */
  fields?: "all" | "first" | "none" | "paths";
  /**
   * A body that is missing, not JSON or `null`: answered `{message, errors: {}}` with the message
   * `validation.bad_json` by default, or refused with this locale key alone.
   */
  notJson?: string;
  /** A JSON body that is not an object (an array, a scalar): as {@link notJson} by default. */
  notObject?: string;
  /**
   * Any JSON value goes through the schema: `null`, an array or a scalar is refused as the
   * field `_` (the session, account and log calls have always answered so), not as not JSON.
   */
  anyJson?: boolean;
  /** How many names of an issue's path name its field (all by default: `levels.1.price`). */
  fieldDepth?: number;
  /** The field an issue's path names, when a form's fields are not the body's paths. */
  fieldOf?: (path: readonly PropertyKey[]) => string;
  /** Placeholders of the messages (`{{max}}`). */
  params?: Readonly<Record<string, string | number>>;
  /** No body at all (none, or zero bytes) is `{}`: for a call whose body is optional. */
  optional?: boolean;
  /** Largest body in bytes (the `readJson` default otherwise). */
  limit?: number;
}

/** A zod issue as the hook reads it. */
interface Issue {
  path: PropertyKey[];
  message: string;
  params?: Record<string, unknown>;
}

/**
 * Text a page only reads (a flash notice's `done`, a link's `next`): a value given twice or
 * not text is as if absent, never refused; the page checks it where it uses it.
 */
export const pageText = z.string().optional().catch(undefined);

/**
 * A page's query as text by name (a name given twice: its first value), never refused: for the
 * pages whose flags and pickers are each checked where they are used.
 */
export const textQuery = z.record(z.string(), z.string());

/** The outcome a page's form redirects back with: `done`, or `error` and its `reason`. */
export const flashQuery = z.object({ done: pageText, error: pageText, reason: pageText });

const LOCALE_KEY = /^[a-z_]+(\.[a-z0-9_]+)+$/;

/**
 * Field errors of zod issues: by the issue's path (`levels.1.price`; `_` for the body itself),
 * the first message of each field, a locale key (`validation.invalid` for zod's own wording).
 */
export function fieldErrors(
  issues: readonly Issue[],
  rules: Pick<Rules, "fieldDepth" | "fieldOf"> = {},
): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = rules.fieldOf?.(issue.path) ??
      (issue.path.length ? issue.path.slice(0, rules.fieldDepth).map(String).join(".") : "_");
    out[key] ??= LOCALE_KEY.test(issue.message) ? issue.message : "validation.invalid";
  }
  return out;
}

/**
 * The one hook: the refusal of input that failed its schema, worded by `rules`. An issue may
 * carry a `detail` param (not translated: for logs and API callers).
 */
export function refusalOf(issues: readonly Issue[], rules: Rules = {}): Refusal {
  const all = Object.entries(fieldErrors(issues, rules));
  const named = rules.fields === "none"
    ? []
    : rules.fields === "first"
    ? all.slice(0, 1)
    : rules.fields === "paths"
    ? all.filter(([k]) => k !== "_")
    : all;
  const detail = issues[0]?.params?.detail;
  return new Refusal(
    "invalid",
    rules.message ?? all[0]?.[1] ?? "validation.failed",
    Object.fromEntries(named),
    typeof detail === "string" ? detail : undefined,
    rules.params,
  );
}

/** The request's query validated with `schema` (typed `c.req.valid("query")`); refused otherwise. */
export function queryInput<S extends z.ZodType>(
  schema: S,
  rules: Rules = {},
) {
  return recordInput(
    zValidator("query", schema, (result) => {
      if (!result.success) throw refusalOf(result.error.issues, rules);
    }),
    "query",
    schema,
  );
}

/** The input of a handler behind {@link jsonInput} with `S`. */
export type JsonIn<S extends z.ZodType> = { in: { json: z.input<S> }; out: { json: z.output<S> } };

/**
 * The JSON body read within its limit and validated with `schema` (typed `c.req.valid("json")`);
 * refused otherwise, changing nothing.
 */
export function jsonInput<
  S extends z.ZodType,
  E extends AppEnv = AppEnv,
  P extends string = string,
>(
  schema: S,
  rules: Rules = {},
): MiddlewareHandler<E, P, JsonIn<S>> {
  return recordInput<MiddlewareHandler<E, P, JsonIn<S>>>(
    async (c, next) => {
      const none = rules.optional &&
        (c.req.header("content-length") === "0" || c.req.raw.body === null);
      const body = none ? {} : await readJson(c, rules.limit);
      const missing = body === undefined || (body === null && !rules.anyJson);
      const other = typeof body !== "object" || Array.isArray(body);
      if (missing || (other && !rules.anyJson)) {
        const key = missing ? rules.notJson : rules.notObject ?? rules.notJson;
        if (key === undefined) return badJson(c);
        throw invalid({}, key);
      }
      const res = schema.safeParse(body);
      if (!res.success) throw refusalOf(res.error.issues, rules);
      c.req.addValidatedData("json", res.data as object);
      await next();
    },
    "json",
    schema,
  );
}

/**
 * `data` (a page's posted form, say) validated with `schema`; the hook's refusal otherwise, for
 * the handlers that answer a refusal themselves (with their page or a redirect).
 */
export function checked<S extends z.ZodType>(schema: S, data: unknown, rules: Rules = {}) {
  const res = schema.safeParse(data);
  if (!res.success) throw refusalOf(res.error.issues, rules);
  return res.data as z.output<S>;
}

/**
 * {@link checked}'s answer as a value: the data, or the hook's refusal, for a page that draws
 * its form again with the refusal's field errors.
 */
export function formChecked<S extends z.ZodType>(
  schema: S,
  data: unknown,
  rules: Rules = {},
): z.output<S> | Refusal {
  const res = schema.safeParse(data);
  return res.success ? res.data as z.output<S> : refusalOf(res.error.issues, rules);
}

/**
 * The request's query validated with `schema`, refused by the hook otherwise: for the page
 * handlers shared by several paths (a handler behind {@link queryInput} reads
 * `c.req.valid("query")` instead). A key given twice is read at its first value, as pages
 * always have.
 */
export function queryOf<S extends z.ZodType>(
  c: Context,
  schema: S,
  rules: Rules = {},
): z.output<S> {
  return checked(schema, c.req.query(), rules);
}
