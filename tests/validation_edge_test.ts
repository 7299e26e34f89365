/**
 * Validation at the edge, once (ARCHITECTURE.md, "An API call"): the routes read bodies and
 * queries only through `routes/_validate.ts` (one hook, typed `c.req.valid(...)`), and the
 * services take typed input, never a parameter typed `unknown` that they would check again.
 * Both are source scans over the repository; each scan is shown to find what it looks for.
 */
import assert from "node:assert/strict";
import { call, withAdminApp } from "./_helpers.ts";

const ROOT = new URL("../", import.meta.url);

/** The source files under `dir` (tests left out), by their path from the repository's root. */
async function sources(dir: string, out = new Map<string, string>()): Promise<Map<string, string>> {
  for await (const e of Deno.readDir(new URL(dir, ROOT))) {
    const path = `${dir}${e.name}`;
    if (e.isDirectory) await sources(`${path}/`, out);
    else if (/\.tsx?$/.test(path) && !/_test\.tsx?$/.test(path)) {
      out.set(path, await Deno.readTextFile(new URL(path, ROOT)));
    }
  }
  return out;
}

/** A request's body or query read past the validators: `c.req.json()`, `readJson(c)`… */
const RAW_READ =
  /\.req\s*\.\s*(json|parseBody|query|queries|formData|text|arrayBuffer)\s*\(|\breadJson\s*\(/g;

/**
 * The route files that may read a request's body or query directly: the validators themselves,
 * and the body reader they are built on (which reads within the route's limit).
 */
const RAW_READERS = new Set(["routes/_validate.ts", "routes/_http.ts"]);

/** Each direct read of a body or query outside the validators: `file:line text`. */
function rawReads(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [path, text] of files) {
    if (RAW_READERS.has(path)) continue;
    text.split("\n").forEach((line, i) => {
      if (line.match(RAW_READ)) out.push(`${path}:${i + 1} ${line.trim()}`);
    });
  }
  return out;
}

/**
 * Exported functions whose parameters may be `unknown` because they are a caught error (any
 * value can be thrown): they sort errors, they do not validate input.
 */
const UNKNOWN_ALLOWED = new Set([
  "services/platform/mqtt_connect.ts classifyConnectError",
  "services/payments/openpay_client.ts isOrderTaken",
  "services/devices/provisioning.ts provisioningKey",
  "services/refusal.ts storageRefusal",
  "services/refusal.ts isDiskFull",
  "services/payments/forgotten.ts processorForgot",
]);

/** The parameter list that starts at `open` (an opening parenthesis) in `text`. */
function paramsAt(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return text.slice(open + 1, i);
  }
  return "";
}

const EXPORTED =
  /export\s+(?:async\s+)?function\s*\*?\s*(\w+)\s*(?:<[^(]*?>)?\s*\(|export\s+const\s+(\w+)\s*=\s*(?:async\s*)?(?:<[^(]*?>)?\s*\(/g;

/** Exported functions with a parameter typed `unknown` (at its top): `file name`. */
function unknownParams(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [path, text] of files) {
    for (const m of text.matchAll(EXPORTED)) {
      const params = paramsAt(text, m.index! + m[0].length - 1);
      // Only a parameter's own type: `x: unknown` or `x?: unknown`, not a type inside it.
      const flat = params.replace(/\{[^{}]*\}|<[^<>]*>|\([^()]*\)/g, "");
      if (/\w\??\s*:\s*unknown\b/.test(flat)) out.push(`${path} ${m[1] ?? m[2]}`);
    }
  }
  return out;
}

Deno.test("no route reads a body or query past routes/_validate.ts", async () => {
  assert.deepEqual(rawReads(await sources("routes/")), []);
});

Deno.test("no exported service function takes a parameter typed unknown (caught errors aside)", async () => {
  const found = unknownParams(await sources("services/"));
  assert.deepEqual(found.filter((f) => !UNKNOWN_ALLOWED.has(f)), []);
  // The allowances are still needed: each names a function that exists and takes `unknown`.
  assert.deepEqual(found.filter((f) => UNKNOWN_ALLOWED.has(f)).sort(), [...UNKNOWN_ALLOWED].sort());
});

Deno.test("the scans find what they look for (they can fail)", () => {
  const routes = new Map([
    ["routes/a.ts", 'const q = c.req.query("x");\nconst b = await c.req.json();'],
    ["routes/b.tsx", "const f = await c.req.parseBody();\nconst raw = await readJson(c);"],
    ["routes/_validate.ts", "return checked(schema, c.req.query(), rules);"],
    ["routes/c.ts", 'const v = c.req.valid("query");\nconst id = c.req.param("id");'],
  ]);
  assert.deepEqual(rawReads(routes), [
    'routes/a.ts:1 const q = c.req.query("x");',
    "routes/a.ts:2 const b = await c.req.json();",
    "routes/b.tsx:1 const f = await c.req.parseBody();",
    "routes/b.tsx:2 const raw = await readJson(c);",
  ]);
  const services = new Map([
    ["services/a.ts", "export function check(query: unknown, lang: Language) {}"],
    ["services/b.ts", "export async function run<T>(\n  deps: Deps,\n  body?: unknown,\n) {}"],
    ["services/c.ts", "export const parse = (raw: unknown) => raw;"],
    ["services/d.ts", "export function ok(deps: Deps, input: { extra: unknown }) {}"],
    ["services/e.ts", "function inner(x: unknown) {}\nexport function typed(x: Input) {}"],
    ["services/f.ts", "export function list(m: Map<string, unknown>, f: (v: unknown) => void) {}"],
  ]);
  assert.deepEqual(unknownParams(services), [
    "services/a.ts check",
    "services/b.ts run",
    "services/c.ts parse",
  ]);
});

Deno.test("the zone list shows a known notice and ignores any other, never a 500", async () => {
  await withAdminApp(async (t, token) => {
    const cookie = `token=${token}`;
    for (const done of ["constructor", "toString", "__proto__", "nope"]) {
      const res = await call(t, "GET", `/admin/pricing?done=${done}`, { cookie });
      assert.equal(res.status, 200, done);
      assert.doesNotMatch(await res.text(), /Zone created|Zone updated|role="status"/, done);
    }
    const known = await call(t, "GET", "/admin/pricing?done=deleted", { cookie });
    assert.equal(known.status, 200);
    assert.match(await known.text(), /deleted/i);
  }, { language: "en" });
});

Deno.test("a bill list's bad query is answered as before: a malformed one whole, a period by its field", async () => {
  await withAdminApp(async (t, token) => {
    const get = async (q: string) => {
      const res = await call(t, "GET", `/api/bills?${q}`, { token });
      return { status: res.status, body: await res.json() };
    };
    assert.deepEqual(await get("station_id=abc"), {
      status: 400,
      body: { message: "Invalid query parameters" },
    });
    const period = await get("billing_month=2026-01-02");
    assert.equal(period.status, 400);
    assert.equal(period.body.message, "Invalid query parameters");
    assert.deepEqual(Object.keys(period.body.errors), ["billing_month"]);
    assert.deepEqual(await get("billing_month=2026-01"), { status: 200, body: { bills: [] } });
  }, { language: "en" });
});
