/**
 * The build's stylesheet lists (scripts/build.ts): every file under static/styles/ is built
 * into a stylesheet, once per stylesheet, and the public stylesheet's rules are the signed-in
 * one's shared rules in the same cascade order.
 */
import assert from "node:assert/strict";
import { styleFiles, stylesheetListProblems, STYLESHEETS } from "../scripts/build.ts";

Deno.test("every file under static/styles/ is in a stylesheet's list, and every listed file exists", async () => {
  const files = await styleFiles();
  assert.ok(files.includes("base/tokens.css") && files.includes("kit/pager.css"), files.join());
  assert.deepEqual(stylesheetListProblems(files), []);
});

Deno.test("a forgotten, a missing or a twice-listed file is reported", async () => {
  const files = await styleFiles();
  assert.deepEqual(stylesheetListProblems([...files, "areas/new.css"]), [
    "areas/new.css is in no stylesheet",
  ]);
  assert.deepEqual(stylesheetListProblems(files.filter((f) => f !== "kit/card.css")), [
    "kit/card.css does not exist",
  ]);
  const twice = { ...STYLESHEETS, charts: ["charts.css", "charts.css"] };
  assert.deepEqual(stylesheetListProblems(files, twice), ["charts.css is listed twice in charts"]);
});

Deno.test("the public stylesheet is the signed-in one's shared rules, in the same order", () => {
  const app: readonly string[] = STYLESHEETS.app;
  const start = app.indexOf(STYLESHEETS.public[0]);
  assert.ok(start >= 0);
  assert.deepEqual(app.slice(start, start + STYLESHEETS.public.length), STYLESHEETS.public);
});
