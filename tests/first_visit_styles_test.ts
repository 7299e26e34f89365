/**
 * Nothing render-blocking on a first visit (issue 32): a browser that was not sent this build's
 * stylesheets gets them inline (with the response's CSP nonce) and a cookie saying so; from
 * then on pages link the files, cached for a year. The inline styles' font URLs point at the
 * build folder, as the linked file's relative ones do.
 */
import assert from "node:assert/strict";
import { account, appTest, call, cookieFrom } from "./_helpers.ts";

appTest("a first visit's page carries its styles inline and the next one links them", async (t) => {
  const css = t.deps.assets.manifest.css;
  const first = await call(t, "GET", "/login");
  const html = await first.text();
  const nonce =
    /script-src 'self' 'nonce-(\w+)'/.exec(first.headers.get("content-security-policy")!)![1];
  assert.match(
    first.headers.get("content-security-policy")!,
    new RegExp(`style-src 'self' 'nonce-${nonce}'`),
  );
  assert.ok(html.includes(`<style nonce="${nonce}">`), "the styles inline, with the nonce");
  assert.ok(!html.includes(`<link rel="stylesheet"`), "no stylesheet to wait for");
  assert.ok(
    html.includes(`<link rel="prefetch" as="style" href="/static/build/${css}">`),
    "the signed-in pages' stylesheet readied",
  );
  assert.match(html, /url\("\/static\/build\/fonts\//, "fonts from the build folder");
  assert.equal(cookieFrom(first, "styles"), `styles=${css}`);

  const { token } = await account(t, "user", { email: "estilos@test.mx" });
  const next = await call(t, "GET", "/user/settings", { token, cookie: `styles=${css}` });
  const page = await next.text();
  assert.ok(
    page.includes(`<link rel="stylesheet" href="/static/build/${css}">`),
    "linked once sent",
  );
  assert.ok(!page.includes("<style"), "no inline styles");
  assert.equal(cookieFrom(next, "styles"), null, "nothing to set again");

  // Another build's cookie: this build's styles are sent inline again.
  const stale = await call(t, "GET", "/user/settings", { token, cookie: "styles=app-OLD.css" });
  assert.ok((await stale.text()).includes("<style nonce="));
});
