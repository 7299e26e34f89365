/**
 * A JSON list's `limit` and `cursor` (issue 15), in one place for every list endpoint: without
 * either the answer is every item, in the list's own order, as the spec names it (`{bills}`);
 * with either it is a page in ascending id order and `next_cursor` (null at the end). A bad
 * limit or a cursor this API did not answer is a 400 that changes nothing.
 */
import type { Context } from "hono";
import type { AppEnv } from "../_deps.ts";
import { queryOf } from "../_validate.ts";
import { apiPageSchema, cursorPage } from "../../core/paging.ts";

/** The page a list request asks for: null for everything. */
interface ApiPage {
  /** How many items at most (every remaining one when absent). */
  limit: number | undefined;
  /** The id the page follows (null: from the first). */
  after: number | null;
}

/** Reads `limit` and `cursor` of a list request; refuses bad values. */
export function apiPage<E extends AppEnv>(c: Context<E>): ApiPage | null {
  const { limit, cursor } = queryOf(c, apiPageSchema);
  if (limit === undefined && cursor === undefined) return null;
  return { limit, after: cursor ?? null };
}

/**
 * Answers `{[name]: items}`, or the page of them the request asks for with `next_cursor`;
 * `json` turns an item into its JSON shape. The answer is a plain `Response`: typing it as
 * Hono's typed JSON of a generic item only makes the type checker's work deeper.
 */
export function listJson<E extends AppEnv, T, J>(
  c: Context<E>,
  name: string,
  items: readonly T[],
  id: (item: T) => number,
  json: (item: T) => J,
): Response {
  const page = apiPage(c);
  if (page === null) return c.json({ [name]: items.map(json) });
  const byId = [...items].sort((a, b) => id(a) - id(b));
  const p = cursorPage(byId, id, page.limit ?? byId.length, page.after);
  return c.json({ [name]: p.items.map(json), next_cursor: p.next_cursor });
}
