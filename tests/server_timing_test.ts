/**
 * Server-Timing (development, or SERVER_TIMING=true): a signed-in page says what its KV reads,
 * store queries and render cost; production answers without it.
 */
import assert from "node:assert/strict";
import { account, testApp } from "./_helpers.ts";
import { createApp } from "../routes/mod.ts";
import { withTimedStores } from "../services/platform/timing.ts";
import { loadConfig } from "../services/platform/config.ts";

Deno.test("a page answers Server-Timing of its KV reads, store queries and render when asked", async () => {
  const t = await testApp();
  try {
    const me = await account(t, "user");
    const config = { ...t.deps.config, serverTiming: true };
    const timed = createApp(withTimedStores({ ...t.deps, config }));
    const res = await timed.request("/user", { headers: { authorization: `Bearer ${me.token}` } });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    const header = res.headers.get("server-timing") ?? "";
    for (const metric of ["kv-get", "render", "total"]) {
      assert.match(header, new RegExp(`(^|, )${metric};dur=\\d+\\.\\d+`), header);
    }
    const plain = await t.app.request("/user", {
      headers: { authorization: `Bearer ${me.token}` },
    });
    await plain.body?.cancel();
    assert.equal(plain.headers.get("server-timing"), null);
  } finally {
    t.close();
  }
});

Deno.test("Server-Timing is on in development and off in production unless asked", () => {
  const cases: [Record<string, string>, boolean][] = [
    [{}, false],
    [{ PORTAL_ENV: "development" }, true],
    [{ SERVER_TIMING: "true" }, true],
    [{ PORTAL_ENV: "development", SERVER_TIMING: "false" }, false],
  ];
  for (const [env, on] of cases) {
    assert.equal(
      loadConfig({ DATA_DIR: "/nonexistent", ...env }).serverTiming,
      on,
      JSON.stringify(env),
    );
  }
});
