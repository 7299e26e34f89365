/**
 * A telemetry store that fails while the portal runs is said as such: `GET /health` answers
 * 503 naming it, the admin dashboard shows the fault, and the tenant's and owner's pages and
 * the chart APIs answer "data unavailable" (503, the message in the reader's language) instead
 * of zeros or a 500. For the SQLite store (its file deleted, or replaced) and for QuestDB
 * (a server that fails).
 */
import assert from "node:assert/strict";
import { type BillingWorld, billingWorld, meter } from "./_billing_world.ts";
import { call } from "./_helpers.ts";
import { fakeQuestDb } from "./_questdb.ts";
import { openSqliteStore } from "../db/telemetry/sqlite.ts";
import { openQuestDbStore } from "../db/telemetry/questdb.ts";
import type { TelemetryStore } from "../db/telemetry/mod.ts";
import type { Language } from "../core/roles.ts";

const NOW = Date.parse("2026-02-03T18:00:00Z");

const html = async (res: Response) => (await res.text()).replace(/<!-- -->/g, "");

/** A station of an owner (English) with two tenants (Spanish, German) and `store` as telemetry. */
async function world(store: TelemetryStore): Promise<BillingWorld> {
  const w = await billingWorld({
    owner: { language: "en" },
    tenants: [{ language: "es" }, { language: "de" }],
  });
  w.t.deps.telemetry = store;
  w.t.deps.now = () => NOW;
  return w;
}

/** What the failing store must answer: every page and API that reads meter data. */
async function assertDataUnavailable(w: BillingWorld) {
  const msg = (lang: Language) => w.t.deps.i18n.t(lang)("errors.data_unavailable");
  const [tenantEs, tenantDe] = w.tenantTokens;
  const owner = w.owner!.token;
  const station = w.stationId, sensor = w.sensors[0];
  const pages: [string, string, Language][] = [
    ["/user", tenantEs, "es"],
    ["/user/consumption", tenantDe, "de"],
    [`/user/consumption/${w.sensors[1]}`, tenantDe, "de"],
    ["/customer", owner, "en"],
    [`/customer/installations/${station}?month=2026-02`, owner, "en"],
    [`/customer/installations/${station}/unit/${sensor}`, owner, "en"],
  ];
  for (const [path, token, lang] of pages) {
    const res = await call(w.t, "GET", path, { token });
    const page = await html(res);
    assert.equal(res.status, 503, `${path}: ${res.status}`);
    assert.ok(page.includes(msg(lang)), `${path} says the data is unavailable in ${lang}`);
    assert.doesNotMatch(page, /0[.,]00 kWh/, `${path} shows no zeros`);
  }
  const apis: [string, string, Language][] = [
    [`/api/measurements/${sensor}/realtime`, tenantEs, "es"],
    [`/api/measurements/${sensor}/history?aggregation=1h`, owner, "en"],
    [`/api/measurements?mode=day&date=2026-02-03`, w.admin, "en"],
    [`/api/measurements/overview`, w.admin, "en"],
  ];
  for (const [path, token, lang] of apis) {
    const res = await call(w.t, "GET", path, { token });
    const body = await res.json();
    assert.equal(res.status, 503, `${path}: ${res.status} ${JSON.stringify(body)}`);
    assert.equal(res.headers.get("retry-after"), "5");
    assert.deepEqual(body, { message: msg(lang), detail: "telemetry_unavailable" }, path);
  }
  // The health check names the store; KV is fine. Its answer names no server path.
  const res = await call(w.t, "GET", "/health");
  const health = await res.json();
  assert.equal(res.status, 503);
  assert.equal(health.status, "failing");
  assert.equal(health.checks.kv.ok, true);
  assert.partialDeepStrictEqual(health.checks.telemetry, { ok: false, reason: "error" });
  assert.doesNotMatch(JSON.stringify(health), /\/tmp|sqlite"/);
  // The admin's dashboard says so, with what failed.
  const dash = await html(await call(w.t, "GET", "/admin", { token: w.admin }));
  assert.match(dash, /data-testid="health-faults"/);
  assert.ok(dash.includes(w.t.deps.i18n.t("en")("errors.storage_failing")));
  return dash;
}

for (const how of ["deleted", "replaced"] as const) {
  Deno.test(`SQLite store ${how} while running: /health 503, the dashboard says so, pages and APIs say data unavailable`, async () => {
    const dir = await Deno.makeTempDir();
    const file = `${dir}/telemetry.sqlite`;
    const store = openSqliteStore(file, { worker: true });
    const w = await world(store);
    try {
      await meter(w.t, "SIM-A", "2026-02", 12);
      await meter(w.t, "SIM-B", "2026-02", 30);
      const ok = await call(w.t, "GET", "/health");
      assert.equal(ok.status, 200);
      assert.partialDeepStrictEqual(await ok.json(), {
        status: "ok",
        checks: { kv: { ok: true }, telemetry: { ok: true, backend: "sqlite" } },
      });
      const before = await call(w.t, "GET", "/user/consumption", { token: w.tenantTokens[1] });
      assert.equal(before.status, 200);
      assert.ok((await html(before)).includes("30,00 kWh") /* the tenant reads German */);
      const dashBefore = await html(await call(w.t, "GET", "/admin", { token: w.admin }));
      assert.doesNotMatch(dashBefore, /health-faults/);

      if (how === "deleted") await Deno.remove(file);
      else {
        const other = openSqliteStore(`${dir}/other.sqlite`);
        await other.close();
        await Deno.rename(`${dir}/other.sqlite`, file);
      }
      const dash = await assertDataUnavailable(w);
      assert.ok(dash.includes(how === "deleted" ? "is gone" : "was replaced"), "what failed");
    } finally {
      w.t.close();
      await store.close().catch(() => {});
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("QuestDB failing while running: /health 503, pages and APIs say data unavailable, not zeros", async () => {
  const questdb = fakeQuestDb();
  const store = await openQuestDbStore(questdb.url);
  const w = await world(store);
  try {
    const ok = await call(w.t, "GET", "/health");
    assert.equal(ok.status, 200, JSON.stringify(await ok.clone().json()));
    assert.partialDeepStrictEqual(await ok.json(), {
      checks: { telemetry: { ok: true, backend: "questdb" } },
    });
    questdb.fail();
    const dash = await assertDataUnavailable(w);
    assert.ok(dash.includes("could not open read-only"), "what failed");
  } finally {
    w.t.close();
    await store.close().catch(() => {});
    await questdb.stop();
  }
});
