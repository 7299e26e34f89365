/**
 * Paged lists: the query of a list page (`page`, `size`, `sort`, `dir`, `q`), the slice of
 * rows it shows, the links of its pager and column headers, and the opaque cursor of the
 * JSON API's `limit`/`cursor`. Pure: no I/O.
 */
import { z } from "zod";

/** The page sizes a list offers; the first is the default. */
export const PAGE_SIZES = [25, 50, 100] as const;
/** A page size. */
export type PageSize = typeof PAGE_SIZES[number];
/** A sort direction. */
export type SortDir = "asc" | "desc";

/** A list page's query, validated. */
export interface ListQuery<S extends string = string> {
  page: number;
  size: PageSize;
  sort: S;
  dir: SortDir;
  /** The search text, trimmed and bounded (empty: no search). */
  q: string;
}

/** The longest search text kept. */
const SEARCH_MAX = 200;

/** A search text, trimmed and bounded. */
export const searchText = (q: unknown) =>
  typeof q === "string" ? q.trim().slice(0, SEARCH_MAX) : "";

/**
 * The schema of a list page's query with the sort keys `sorts` (the first is the default).
 * Every invalid value falls back to its default: a bad page is the first, a bad size 25.
 */
export function listQuerySchema<S extends string>(
  sorts: readonly [S, ...S[]],
): z.ZodType<ListQuery<S>, Record<string, unknown>> {
  // One schema per list of sorts (each route's is a constant): pages ask for it per request.
  let schema = SCHEMAS.get(sorts) as z.ZodType<ListQuery<S>, Record<string, unknown>> | undefined;
  if (!schema) SCHEMAS.set(sorts, schema = makeListQuerySchema(sorts));
  return schema;
}

const SCHEMAS = new WeakMap<readonly string[], z.ZodType>();

function makeListQuerySchema<S extends string>(
  sorts: readonly [S, ...S[]],
): z.ZodType<ListQuery<S>, Record<string, unknown>> {
  return z.object({
    page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
    size: z.coerce.number().refine((n): n is PageSize => PAGE_SIZES.includes(n as PageSize))
      .catch(PAGE_SIZES[0]) as unknown as z.ZodType<PageSize>,
    sort: z.enum(sorts as unknown as [S, ...S[]]).catch(sorts[0]) as unknown as z.ZodType<S>,
    dir: z.enum(["asc", "desc"]).catch("asc"),
    q: z.string().optional().catch(undefined).transform(searchText),
  });
}

/** Parses a list page's query (never throws: every bad value falls back). */
export function parseListQuery<S extends string>(
  sorts: readonly [S, ...S[]],
  query: Record<string, string | undefined>,
): ListQuery<S> {
  const parsed = listQuerySchema(sorts).safeParse(query);
  return parsed.success
    ? parsed.data as ListQuery<S>
    : { page: 1, size: PAGE_SIZES[0], sort: sorts[0], dir: "asc", q: searchText(query.q) };
}

/** One page of a list. */
export interface Page<T> {
  rows: T[];
  /** Rows in the whole (searched) list. */
  total: number;
  /** The page shown (a page past the end shows the last one). */
  page: number;
  size: PageSize;
  /** How many pages there are (at least 1). */
  pages: number;
}

/** The first and last row numbers a page shows (1-based; 0 and 0 when empty). */
export function pageRange(p: Pick<Page<unknown>, "page" | "size" | "total">) {
  if (p.total === 0) return { from: 0, to: 0 };
  const from = (p.page - 1) * p.size + 1;
  return { from, to: Math.min(p.total, from + p.size - 1) };
}

/** The page count of `total` rows. */
const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** The page of `total` rows that `query` asks for, clamped to the last. */
export function pageOf(total: number, query: Pick<ListQuery, "page" | "size">) {
  const pages = pageCount(total, query.size);
  const page = Math.min(query.page, pages);
  return { page, pages, start: (page - 1) * query.size, end: page * query.size };
}

/** Slices an already sorted and searched list to the page `query` asks for. */
export function paginate<T>(rows: readonly T[], query: Pick<ListQuery, "page" | "size">): Page<T> {
  const { page, pages, start, end } = pageOf(rows.length, query);
  return { rows: rows.slice(start, end), total: rows.length, page, size: query.size, pages };
}

/** Compares two cell values: numbers by value, text by locale (case and accents ignored). */
const collator = new Intl.Collator("es", { sensitivity: "base", numeric: true });
function compareValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return collator.compare(String(a), String(b));
}

/**
 * Sorts rows in place by `key(row)` in `dir`, ties broken by `id` ascending (a stable,
 * repeatable order across pages).
 */
export function sortRows<T>(
  rows: T[],
  key: (row: T) => string | number | null,
  dir: SortDir,
  id: (row: T) => number,
): T[] {
  const sign = dir === "desc" ? -1 : 1;
  const keys = new Map(rows.map((r) => [r, key(r)]));
  return rows.sort((a, b) => sign * compareValues(keys.get(a)!, keys.get(b)!) || id(a) - id(b));
}

/** Whether any of `fields` contains `q` (any case). */
export function matches(q: string, fields: readonly (string | null | undefined)[]): boolean {
  if (!q) return true;
  const needle = q.toLowerCase();
  return fields.some((f) => (f ?? "").toLowerCase().includes(needle));
}

/**
 * The URL of a list page: `base` with `params` (kept, like a tab) and the list query, leaving
 * out default values.
 */
export function listHref(
  base: string,
  query: ListQuery,
  defaults: { sort: string },
  params: Record<string, string | undefined> = {},
): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) qs.set(k, v);
  if (query.q) qs.set("q", query.q);
  if (query.sort !== defaults.sort) qs.set("sort", query.sort);
  if (query.dir !== "asc") qs.set("dir", query.dir);
  if (query.size !== PAGE_SIZES[0]) qs.set("size", String(query.size));
  if (query.page !== 1) qs.set("page", String(query.page));
  const s = qs.toString();
  return s ? `${base}?${s}` : base;
}

// ---- the JSON API's limit and cursor ----------------------------------------------------------

/** The most items one API page answers. */
const API_LIMIT_MAX = 1000;

/**
 * `limit` and `cursor` of a list endpoint: both optional; no limit answers everything (a
 * cursor alone continues with everything after it). A cursor this API did not answer is
 * refused.
 */
export const apiPageSchema = z.object({
  limit: z.coerce.number({ error: "validation.invalid" }).int("validation.invalid")
    .min(1, "validation.invalid").max(API_LIMIT_MAX, "validation.invalid").optional(),
  cursor: z.string().refine((c) => decodeCursor(c) !== null, "validation.invalid")
    .transform((c) => decodeCursor(c)!).optional(),
});

/** The cursor after the item with id `id` (opaque to clients). */
export const encodeCursor = (id: number) =>
  btoa(`a${id}`).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");

/** The id a cursor follows, or null when it is no cursor this API answered. */
export function decodeCursor(cursor: string): number | null {
  try {
    const raw = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const m = /^a(\d{1,15})$/.exec(raw);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

/**
 * The items after the cursor's id, at most `limit` of them, and the next cursor (null at the
 * end). `items` are in ascending id order.
 */
export function cursorPage<T>(
  items: readonly T[],
  id: (item: T) => number,
  limit: number,
  after: number | null,
): { items: T[]; next_cursor: string | null } {
  let start = 0;
  if (after !== null) {
    let lo = 0, hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (id(items[mid]) <= after) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const page = items.slice(start, start + limit);
  const more = start + limit < items.length;
  return { items: page, next_cursor: more ? encodeCursor(id(page[page.length - 1])) : null };
}
