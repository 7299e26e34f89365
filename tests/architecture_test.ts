/**
 * The shape ARCHITECTURE.md promises, checked over the repository's own import graph: no import
 * circle, every folder imports only what the layer table allows (routes never import db/,
 * components only types of services), and core/ stays pure.
 */
import assert from "node:assert/strict";
import {
  circles,
  type ImportGraph,
  importGraph,
  importsOf,
  isSource,
  layerViolations,
  REPOSITORY,
} from "../scripts/import_graph.ts";

const graph = await importGraph();

/** A graph of the given files and their imports (`!` before a target: type-only). */
const graphOf = (edges: Record<string, string[]>): ImportGraph =>
  new Map(
    Object.entries(edges).map(([from, tos]) => [
      from,
      tos.map((to) => ({ to: to.replace(/^!/, ""), typeOnly: to.startsWith("!") })),
    ]),
  );

Deno.test("the graph holds every source file and its relative imports, type-only ones marked", () => {
  for (const file of ["main.ts", "core/bill.ts", "routes/mod.ts", "islands/mod.ts"]) {
    assert.ok(graph.has(file), file);
  }
  assert.ok(graph.get("main.ts")!.some((e) => e.to === "routes/mod.ts" && !e.typeOnly));
  assert.deepEqual(
    importsOf(
      [
        'import { a } from "./a.ts";',
        'import type { B } from "../b.ts";',
        'import {\n  c,\n  type D,\n} from "./c.ts";',
        'export { e } from "./e.ts";',
        'export * from "./f.ts";',
        'export type { G } from "./g.ts";',
        'import * as h from "./h.ts";',
        'import I, { j } from "./i.ts";',
        'import "./side.ts";',
        'const k = await import("./k.ts");',
        'export const text = "x from \\"./not-an-import.ts\\"";',
      ].join("\n"),
    ),
    [
      { specifier: "./a.ts", typeOnly: false },
      { specifier: "../b.ts", typeOnly: true },
      { specifier: "./c.ts", typeOnly: false },
      { specifier: "./e.ts", typeOnly: false },
      { specifier: "./f.ts", typeOnly: false },
      { specifier: "./g.ts", typeOnly: true },
      { specifier: "./h.ts", typeOnly: false },
      { specifier: "./i.ts", typeOnly: false },
      { specifier: "./side.ts", typeOnly: false },
      { specifier: "./k.ts", typeOnly: false },
    ],
  );
});

Deno.test("a circle and an import the table forbids are found (the checks can fail)", () => {
  const bad = graphOf({
    "core/a.ts": ["!core/b.ts"],
    "core/b.ts": ["core/c.ts"],
    "core/c.ts": ["core/a.ts", "db/x.ts"],
    "db/x.ts": ["core/a.ts", "ingest/y.ts"],
    "ingest/y.ts": ["db/x.ts"],
    "routes/r.tsx": ["db/x.ts", "services/s.ts", "components/k.tsx"],
    "services/s.ts": ["db/x.ts", "services/platform/p.ts"],
    "services/platform/p.ts": ["services/s.ts", "services/refusal.ts"],
    "services/refusal.ts": [],
    "components/k.tsx": ["services/s.ts", "!services/platform/p.ts", "islands/i.tsx"],
    "islands/i.tsx": ["components/zones/NumberField.tsx", "components/k.tsx"],
    "components/zones/NumberField.tsx": [],
    "core/a_test.ts": ["core/a_test.ts", "routes/r.tsx"],
  });
  assert.deepEqual(circles(bad), [
    ["components/k.tsx", "islands/i.tsx"],
    ["core/a.ts", "core/b.ts", "core/c.ts", "db/x.ts", "ingest/y.ts"],
    ["services/platform/p.ts", "services/s.ts"],
  ]);
  assert.deepEqual(layerViolations(bad), [
    { from: "components/k.tsx", to: "services/s.ts" },
    { from: "core/c.ts", to: "db/x.ts" },
    { from: "db/x.ts", to: "ingest/y.ts" },
    { from: "islands/i.tsx", to: "components/k.tsx" },
    { from: "routes/r.tsx", to: "db/x.ts" },
    { from: "services/platform/p.ts", to: "services/s.ts" },
  ]);
});

Deno.test("no import circle among the source files", () => {
  assert.deepEqual(circles(graph), []);
});

Deno.test("every folder imports only what ARCHITECTURE.md's layer table allows", () => {
  assert.deepEqual(layerViolations(graph), []);
});

Deno.test("routes never import db/", () => {
  const found = [...graph].filter(([from]) => from.startsWith("routes/") && isSource(from))
    .flatMap(([from, edges]) => edges.filter((e) => e.to.startsWith("db/")).map(() => from));
  assert.deepEqual(found, []);
});

Deno.test("core/ is pure: no Deno API, no clock, no package but zod (validation schemas)", async () => {
  const found: string[] = [];
  for (const [file, edges] of graph) {
    if (!file.startsWith("core/") || !isSource(file)) continue;
    const text = await Deno.readTextFile(new URL(file, REPOSITORY));
    if (/\bDeno\./.test(text)) found.push(`${file}: Deno.*`);
    if (/\bDate\.now\(|new Date\(\)|performance\.now\(/.test(text)) found.push(`${file}: clock`);
    for (const { to } of edges) {
      if (!graph.has(to) && to !== "zod") found.push(`${file}: ${to}`);
    }
  }
  assert.deepEqual(found, []);
});
