import assert from "node:assert/strict";
import {
  cursorPage,
  decodeCursor,
  encodeCursor,
  listHref,
  paginate,
  parseListQuery,
  sortRows,
} from "./paging.ts";

const SORTS = ["id", "name"] as const;

Deno.test("parseListQuery() keeps good values and falls back on each bad one", () => {
  assert.deepEqual(
    parseListQuery(SORTS, { page: "3", size: "100", sort: "name", dir: "desc", q: "  norte " }),
    { page: 3, size: 100, sort: "name", dir: "desc", q: "norte" },
  );
  const fallback = { page: 1, size: 25, sort: "id", dir: "asc", q: "" };
  for (
    const bad of [
      { page: "0" },
      { page: "-2" },
      { page: "2.5" },
      { page: "x" },
      { size: "10" },
      { size: "1e9" },
      { sort: "password_hash" },
      { dir: "sideways" },
    ]
  ) {
    assert.deepEqual(parseListQuery(SORTS, bad), fallback, JSON.stringify(bad));
  }
  assert.equal(parseListQuery(SORTS, { q: "x".repeat(500) }).q.length, 200);
});

Deno.test("paginate() slices the asked page and shows the last one past the end", () => {
  const rows = Array.from({ length: 60 }, (_, i) => i + 1);
  const p2 = paginate(rows, { page: 2, size: 25 });
  assert.deepEqual([p2.rows[0], p2.rows.at(-1), p2.total, p2.pages], [26, 50, 60, 3]);
  const past = paginate(rows, { page: 9, size: 25 });
  assert.deepEqual([past.page, past.rows.length], [3, 10]);
  assert.deepEqual(paginate([], { page: 4, size: 25 }), {
    rows: [],
    total: 0,
    page: 1,
    size: 25,
    pages: 1,
  });
});

Deno.test("sortRows() orders text without case or accents, ties by id", () => {
  const rows = [
    { id: 3, name: "árbol" },
    { id: 1, name: "Zeta" },
    { id: 2, name: "arbol" },
    { id: 4, name: "beta" },
  ];
  assert.deepEqual(sortRows(rows, (r) => r.name, "asc", (r) => r.id).map((r) => r.id), [
    2,
    3,
    4,
    1,
  ]);
  assert.deepEqual(sortRows(rows, (r) => r.name, "desc", (r) => r.id).map((r) => r.id), [
    1,
    4,
    2,
    3,
  ]);
});

Deno.test("listHref() leaves defaults out and keeps fixed parameters", () => {
  const q = { page: 2, size: 50 as const, sort: "name", dir: "desc" as const, q: "a b" };
  assert.equal(
    listHref("/admin/users", q, { sort: "id" }, { tab: "tenants" }),
    "/admin/users?tab=tenants&q=a+b&sort=name&dir=desc&size=50&page=2",
  );
  assert.equal(
    listHref("/admin/devices", { ...q, page: 1, size: 25, sort: "id", dir: "asc", q: "" }, {
      sort: "id",
    }),
    "/admin/devices",
  );
});

Deno.test("cursorPage() walks every item once and ends with a null cursor", () => {
  const items = [2, 3, 5, 8, 13, 21, 34].map((id) => ({ id }));
  const seen: number[] = [];
  let after: number | null = null;
  for (let i = 0; i < 10; i++) {
    const page = cursorPage(items, (x) => x.id, 3, after);
    seen.push(...page.items.map((x) => x.id));
    if (page.next_cursor === null) break;
    after = decodeCursor(page.next_cursor);
  }
  assert.deepEqual(seen, [2, 3, 5, 8, 13, 21, 34]);
  assert.equal(decodeCursor(encodeCursor(42)), 42);
  assert.equal(decodeCursor("not-a-cursor"), null);
  assert.equal(decodeCursor("%%%"), null);
});
