/**
 * Security headers on pages and static files, CSP with the islands' nonce, HSTS and the
 * cookie's Secure from PUBLIC_URL, the CSRF origin with its scheme, JSON routes JSON only.
 */
import assert from "node:assert/strict";
import { account, call, cookieFrom, type TestApp, testApp } from "../_helpers.ts";
import { loadConfig } from "../../services/platform/config.ts";

Deno.test("pages and static files carry the hardening headers and a CSP", async () => {
  const t = await testApp();
  for (
    const path of ["/login", "/static/favicon.svg", `/static/build/${t.deps.assets.manifest.css}`]
  ) {
    const res = await call(t, "GET", path);
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get("x-content-type-options"), "nosniff", path);
    assert.equal(res.headers.get("x-frame-options"), "DENY", path);
    assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self' 'nonce-/);
    await res.body?.cancel();
  }
  assert.equal((await call(t, "GET", "/login")).headers.get("strict-transport-security"), null);
  t.close();
});

Deno.test("the islands' data and scripts carry the response's CSP nonce", async () => {
  const t = await testApp();
  const res = await call(t, "GET", "/register");
  const csp = res.headers.get("content-security-policy")!;
  const nonce = /'nonce-([^']+)'/.exec(csp)![1];
  const html = await res.text();
  const scripts = html.match(/<script[^>]*>/g) ?? [];
  assert.ok(scripts.length > 0, "the register page has islands");
  for (const s of scripts) assert.ok(s.includes(`nonce="${nonce}"`), s);
  t.close();
});

Deno.test("over HTTP a page is sent whole with its length, or gzipped when asked, varying on Accept-Encoding once", async () => {
  const t = await testApp();
  const ac = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: ac.signal, onListen: () => {} },
    (req, info) => t.app.fetch(req, { remoteAddr: info.remoteAddr }),
  );
  const page = `http://127.0.0.1:${server.addr.port}/login`;
  try {
    const whole = await fetch(page, { headers: { "accept-encoding": "identity" } });
    const html = await whole.text();
    assert.equal(whole.status, 200);
    assert.ok(html.length > 1024, "a page large enough to be compressed");
    assert.equal(whole.headers.get("transfer-encoding"), null);
    assert.equal(
      Number(whole.headers.get("content-length")),
      new TextEncoder().encode(html).length,
    );
    assert.equal(whole.headers.get("vary"), "Accept-Encoding");

    const gzipped = await fetch(page, { headers: { "accept-encoding": "gzip" } });
    assert.equal(gzipped.headers.get("content-encoding"), "gzip");
    assert.equal(gzipped.headers.get("vary"), "Accept-Encoding");
    const text = await gzipped.text(); // fetch inflates it
    const nonce = (s: string) => s.replace(/[0-9a-f]{32}/g, "N");
    assert.equal(nonce(text), nonce(html));
  } finally {
    ac.abort();
    await server.finished;
    t.close();
  }
});

/** A cookie sign-out posted from `origin` is refused as cross-site (403). */
async function assertCrossSite(t: TestApp, cookie: string, origin: string) {
  const res = await call(t, "POST", "/logout", { cookie, origin });
  assert.equal(res.status, 403, origin);
  await res.body?.cancel();
}

Deno.test("PUBLIC_URL https: HSTS, a Secure cookie, and the CSRF origin's scheme must match", async () => {
  const t = await testApp({ config: loadConfig({ PUBLIC_URL: "https://portal.example" }) });
  const { user, password } = await account(t, "user");
  const ok = await call(t, "POST", "/login", {
    form: { email: user.email, password },
    origin: "https://portal.example",
  });
  assert.equal(ok.status, 303);
  assert.match(ok.headers.get("strict-transport-security") ?? "", /max-age=\d+/);
  const raw = ok.headers.getSetCookie().find((c) => c.startsWith("token="))!;
  assert.match(raw, /Secure/);
  const cookie = cookieFrom(ok, "token")!;
  // Same host, other scheme: cross-site.
  await assertCrossSite(t, cookie, "http://portal.example");
  t.close();
});

Deno.test("without PUBLIC_URL the CSRF check compares scheme and host", async () => {
  const t = await testApp();
  const { user, password } = await account(t, "user");
  const res = await call(t, "POST", "/login", { form: { email: user.email, password } });
  const cookie = cookieFrom(res, "token")!;
  await assertCrossSite(t, cookie, "https://localhost");
  t.close();
});

Deno.test("JSON routes refuse text/plain and untyped bodies with 415, changing nothing", async () => {
  const t = await testApp();
  const admin = await account(t, "admin");
  for (const headers of [{ "content-type": "text/plain" }, {} as Record<string, string>]) {
    const res = await call(t, "POST", "/api/zones", {
      token: admin.token,
      body: JSON.stringify({ name: "Zona", price_low: 1 }),
      headers,
    });
    assert.equal(res.status, 415, JSON.stringify(headers));
    await res.body?.cancel();
  }
  const sign = await call(t, "POST", "/auth/login", {
    body: JSON.stringify({ email: admin.user.email, password: admin.password }),
    headers: { "content-type": "text/plain" },
  });
  assert.equal(sign.status, 415);
  await sign.body?.cancel();
  const zones = await (await call(t, "GET", "/api/zones", { token: admin.token })).json();
  assert.deepEqual(zones, { zones: [] });
  t.close();
});
