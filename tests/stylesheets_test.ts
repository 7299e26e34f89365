/**
 * Which stylesheets a page links: the pages without the signed-in frame the small public one,
 * signed-in pages the full one, and only pages with a chart uPlot's (before the portal's own,
 * so that the portal's rules win the cascade), for a browser that was sent this build's styles
 * before (its `styles` cookie; a first visit's inline styles: first_visit_styles_test.ts).
 */
import assert from "node:assert/strict";
import { call, withAdminApp } from "./_helpers.ts";

const linked = (html: string) =>
  [...html.matchAll(/<link rel="stylesheet" href="\/static\/build\/([^"]+)">/g)].map((m) => m[1]);

Deno.test("public pages link the public stylesheet, signed-in pages the full one, charts uPlot's first", () =>
  withAdminApp(async (t, token) => {
    const { css, publicCss, chartsCss } = t.deps.assets.manifest;
    assert.equal(new Set([css, publicCss, chartsCss]).size, 3);
    const cookie = `styles=${css}`;
    for (const path of ["/login", "/register", "/legal"]) {
      const res = await call(t, "GET", path, { cookie });
      assert.equal(res.status, 200);
      assert.deepEqual(linked(await res.text()), [publicCss], path);
    }
    const page = async (path: string) =>
      linked(await (await call(t, "GET", path, { token, cookie })).text());
    assert.deepEqual(await page("/admin"), [css]);
    assert.deepEqual(await page("/admin/devices"), [css]);
    assert.deepEqual(await page("/admin/stats"), [chartsCss, css]);
    // Every file linked is served.
    for (const file of [css, publicCss, chartsCss]) {
      const res = await call(t, "GET", `/static/build/${file}`);
      assert.equal(res.status, 200, file);
      assert.match(res.headers.get("content-type") ?? "", /text\/css/);
      await res.body?.cancel();
    }
  }));
