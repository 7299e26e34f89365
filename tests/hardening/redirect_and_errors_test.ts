/** Sign-in never leaves the portal's origin, and an unexpected failure shows no exception text. */
import assert from "node:assert/strict";
import { account, call, testApp } from "../_helpers.ts";
import { loadConfig } from "../../services/platform/config.ts";

Deno.test("POST /login resolves next against the portal's origin and ignores anything else", async () => {
  const t = await testApp();
  const customer = await account(t, "customer");
  const go = async (next: string) => {
    const res = await call(t, "POST", "/login", {
      form: { email: customer.user.email, password: customer.password, next },
    });
    assert.equal(res.status, 303, next);
    const location = res.headers.get("location")!;
    // Where a browser would go from the portal's page.
    assert.equal(new URL(location, "http://localhost/login").origin, "http://localhost", next);
    return location;
  };
  for (
    const evil of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\\evil.example",
      "/.//evil.example",
      "//evil.example",
      "https://evil.example/",
    ]
  ) {
    assert.equal(await go(evil), "/customer", JSON.stringify(evil));
  }
  assert.equal(await go("/customer/stations?x=1"), "/customer/stations?x=1");
  t.close();
});

Deno.test("CR/LF in next is ignored, never a 500", async () => {
  const t = await testApp();
  const customer = await account(t, "customer");
  const next = "/customer\r\nSet-Cookie: x=1";
  const res = await call(t, "POST", "/login", {
    form: { email: customer.user.email, password: customer.password, next },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/customerSet-Cookie:%20x=1");
  const page = await call(t, "GET", `/login?next=${encodeURIComponent(next)}`);
  assert.equal(page.status, 200);
  await page.body?.cancel();
  t.close();
});

Deno.test("PUBLIC_URL is the origin next is resolved against", async () => {
  const t = await testApp({ config: loadConfig({ PUBLIC_URL: "https://portal.example" }) });
  const admin = await account(t, "admin");
  const res = await call(t, "POST", "/login", {
    form: { email: admin.user.email, password: admin.password, next: "/admin/settings" },
    origin: "https://portal.example",
    headers: { host: "portal.example" },
  });
  assert.equal(res.headers.get("location"), "/admin/settings");
  t.close();
});

Deno.test("an unexpected failure's page shows the exception only in development", async () => {
  for (const env of ["production", "development"] as const) {
    const t = await testApp({ config: loadConfig({ PORTAL_ENV: env }) });
    const admin = await account(t, "admin");
    t.app.get("/admin/boom", () => {
      throw new Error("secret-internal-detail");
    });
    const res = await call(t, "GET", "/admin/boom", { token: admin.token });
    assert.equal(res.status, 500);
    const html = await res.text();
    assert.match(html, /Algo salió mal|Something went wrong|went wrong/i);
    assert.equal(html.includes("secret-internal-detail"), env === "development", env);
    t.close();
  }
});
