/**
 * Static files: the build output under /static/build/ (hashed names, cached for a year,
 * immutable) and the few plain files under /static/ (cached for an hour). Files are read
 * through URLs relative to this module so that they work inside a compiled binary.
 */
import { Hono } from "hono";
import type { AppEnv, Deps } from "./_deps.ts";

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  woff2: "font/woff2",
  woff: "font/woff",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  json: "application/json",
  txt: "text/plain; charset=utf-8",
};

const PUBLIC_DIR = new URL("../static/", import.meta.url);
const SAFE_PATH = /^[A-Za-z0-9_-][A-Za-z0-9_.\/-]*$/;

async function serve(dir: URL, rel: string, cache: string): Promise<Response | null> {
  if (!SAFE_PATH.test(rel) || rel.includes("..") || rel.includes("//")) return null;
  const ext = rel.slice(rel.lastIndexOf(".") + 1);
  const type = TYPES[ext];
  if (!type) return null;
  try {
    const data = await Deno.readFile(new URL(rel, dir));
    return new Response(data, { headers: { "content-type": type, "cache-control": cache } });
  } catch {
    return null;
  }
}

/** Routes for static files. */
export function staticRoutes(deps: Deps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/static/build/*", async (c) => {
    const rel = c.req.path.slice("/static/build/".length);
    return (await serve(deps.assets.dir, rel, "public, max-age=31536000, immutable")) ??
      c.text("Not found", 404);
  });
  app.get("/static/*", async (c) => {
    const rel = c.req.path.slice("/static/".length);
    if (rel.startsWith("build/") || rel.startsWith("styles/")) return c.text("Not found", 404);
    return (await serve(PUBLIC_DIR, rel, "public, max-age=3600")) ?? c.text("Not found", 404);
  });
  app.get("/favicon.ico", (c) => c.redirect("/static/favicon.svg", 301));
  return app;
}
