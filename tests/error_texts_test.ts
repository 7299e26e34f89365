/**
 * Error texts of spec 000 and 001 where their situations occur: a sign-in that cannot be
 * checked gets the generic retry message (page and JSON, 503, never a 500); an account or a
 * zone whose record cannot be read shows 'Failed to fetch required data' or 'Error loading
 * data: …' with Try Again (503); an MQTT test that cannot run says 'MQTT Connection test failed:
 * Unknown error'.
 */
import assert from "node:assert/strict";
import { account, appTest, call, type TestApp, testApp } from "./_helpers.ts";
import { createZone } from "../db/zones.ts";
import { defaultZone } from "../core/zone.ts";
import { stationWorld } from "./_station_world.ts";

/** Makes `t`'s store fail every read of a key under `prefix` (the rest works). */
function failReads(t: TestApp, prefix: Deno.KvKey) {
  const kv = t.deps.kv;
  const hit = (key: Deno.KvKey) => prefix.every((p, i) => key[i] === p);
  t.deps.kv = new Proxy(kv, {
    get(target, prop) {
      if (prop === "get") {
        return (key: Deno.KvKey, o?: unknown) =>
          hit(key) ? Promise.reject(new Error("store down")) : target.get(key, o as never);
      }
      const v = Reflect.get(target, prop);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

Deno.test("a sign-in that cannot be checked asks to try again (page and JSON), not a 500", async () => {
  const t = await testApp({ throttle: null as never });
  try {
    const me = await account(t, "user");
    const form = { email: me.user.email, password: me.password };
    const page = await call(t, "POST", "/login", {
      form,
      headers: { cookie: "auth_language=en" },
    });
    assert.equal(page.status, 503);
    const html = await page.text();
    assert.match(html, /Something went wrong while signing in\. Please try again\./);
    assert.match(html, new RegExp(`value="${me.user.email}"`), "the e-mail stays in the form");
    const json = await call(t, "POST", "/auth/login", { json: form });
    assert.equal(json.status, 503);
    assert.deepEqual(await json.json(), {
      message: "Ocurrió un error al iniciar sesión. Inténtelo de nuevo.",
      code: "sign_in_failed",
    });
  } finally {
    t.close();
  }
});

appTest(
  "an account form whose account cannot be read says 'Failed to fetch required data'",
  async (t) => {
    const admin = await account(t, "admin");
    const tenant = await account(t, "user");
    failReads(t, ["users", tenant.user.id]);
    const res = await call(t, "GET", `/admin/users/accounts-form/user/${tenant.user.id}`, {
      token: admin.token,
    });
    assert.equal(res.status, 503);
    const html = await res.text();
    assert.match(html, /data-testid="load-failed"[^>]*>Failed to fetch required data</);
    assert.match(html, new RegExp(`href="/admin/users/accounts-form/user/${tenant.user.id}"`));
  },
);

appTest("a zone form whose zone cannot be read says 'Error loading data: …'", async (t) => {
  const admin = await account(t, "admin");
  const zone = await createZone(t.deps.kv, defaultZone("Norte"), Date.now());
  failReads(t, ["zones", zone.id]);
  const res = await call(t, "GET", `/admin/zones/${zone.id}/edit`, { token: admin.token });
  assert.equal(res.status, 503);
  assert.match(await res.text(), /Error loading data: The page could not be shown/);
});

Deno.test("an MQTT test that cannot run says 'MQTT Connection test failed: Unknown error'", async () => {
  const w = await stationWorld();
  try {
    const kv = w.t.deps.kv;
    const path = `/admin/devices/station/${w.stationId}/sensor/${w.sensorId}`;
    failReads(w.t, ["devices", w.sensorId]);
    const res = await call(w.t, "POST", `${path}/test-mqtt`, { token: w.admin.token, form: {} });
    assert.equal(res.status, 303);
    const back = res.headers.get("location")!;
    assert.equal(back, `${path}/data?mqtt_test=error#mqtt-test`);
    w.t.deps.kv = kv;
    const page = await call(w.t, "GET", back.replace("#mqtt-test", ""), { token: w.admin.token });
    assert.match(await page.text(), /MQTT Connection test failed: Unknown error/);
  } finally {
    w.t.close();
  }
});
