/**
 * The admin's paged lists: 25 rows by default, 50 and 100 on request, page, sort and search
 * in the URL, bad values falling back to the defaults, the pager's links and texts; and the
 * fleet counts served from the counters kept with the writes.
 */
import assert from "node:assert/strict";
import { call, type TestApp, withAdminApp } from "./_helpers.ts";
import { bulkStation } from "./_bulk_stations.ts";
import { createUser } from "../db/users.ts";
import { markOnline } from "../db/device_status.ts";
import { createZone } from "../db/zones.ts";
import { defaultZone } from "../core/zone.ts";
import { writeStationBills } from "../db/bills_run.ts";
import { billPeriod, unitBillDraft } from "./_bills.ts";

async function page(t: TestApp, path: string, token: string) {
  const res = await call(t, "GET", path, { token });
  assert.equal(res.status, 200, `GET ${path}`);
  return await res.text();
}

/** The JSON answer of `GET path` with `token`. */
async function answer(t: TestApp, path: string, token: string) {
  return await (await call(t, "GET", path, { token })).json();
}

/** The station ids of the list's rows, in order. */
const rowIds = (html: string) =>
  [...html.matchAll(/<tr data-station-id="(\d+)"/g)].map((m) => Number(m[1]));

/** `n` stations named "Estación 001"... (one unit each); answers their ids. */
async function stations(t: TestApp, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) {
    const num = String(i).padStart(3, "0");
    const s = await bulkStation(t.deps.kv, {
      serial: `SN-${num}`,
      name: `Estación ${num}`,
      zoneId: 1,
      units: 1,
      sensorPrefix: `M${num}`,
    });
    ids.push(s.id);
  }
  return ids;
}

Deno.test("the station list shows 25 stations a page with a pager, 50 or 100 on request", () =>
  withAdminApp(async (t, admin) => {
    const ids = await stations(t, 60);
    const first = await page(t, "/admin/devices", admin);
    assert.deepEqual(rowIds(first), ids.slice(0, 25));
    assert.match(first, /<nav class="pager" aria-label="Stations pages">/);
    assert.match(first, /1–25 of 60/);
    assert.match(first, /<a href="\/admin\/devices\?page=2" rel="next">Next<\/a>/);
    assert.match(
      first,
      /<a href="\/admin\/devices" aria-current="page" aria-label="Page 1">1<\/a>/,
    );

    const third = await page(t, "/admin/devices?page=3", admin);
    assert.deepEqual(rowIds(third), ids.slice(50));
    assert.match(third, /51–60 of 60/);
    assert.match(third, /aria-current="page" aria-label="Page 3"/);

    assert.deepEqual(rowIds(await page(t, "/admin/devices?size=50", admin)), ids.slice(0, 50));
    assert.deepEqual(rowIds(await page(t, "/admin/devices?size=100", admin)), ids);
  }));

Deno.test("the pager speaks Spanish and German too", async () => {
  for (
    const [language, range, name] of [["es", "26–30 de 30", "Página 2"], [
      "de",
      "26–30 von 30",
      "Seite 2",
    ]]
  ) {
    await withAdminApp(async (t, admin) => {
      await stations(t, 30);
      const html = await page(t, "/admin/devices?page=2", admin);
      assert.match(html, new RegExp(range));
      assert.match(html, new RegExp(`aria-current="page" aria-label="${name}"`));
    }, { language: language as "es" | "de" });
  }
});

Deno.test("the station list sorts by a column and searches, keeping both in its links", () =>
  withAdminApp(async (t, admin) => {
    const ids = await stations(t, 30);
    const desc = await page(t, "/admin/devices?sort=name&dir=desc", admin);
    assert.deepEqual(rowIds(desc), ids.slice().reverse().slice(0, 25));
    assert.match(desc, /aria-sort="descending"/);
    assert.match(desc, /href="\/admin\/devices\?sort=name&amp;dir=desc&amp;page=2"/);

    const found = await page(t, "/admin/devices?q=sn-02", admin);
    assert.deepEqual(rowIds(found), ids.slice(19, 29)); // SN-020 ... SN-029
    assert.match(found, /1–10 of 10/);
    // A search by station id (the stored id).
    assert.deepEqual(
      rowIds(await page(t, `/admin/devices?q=${ids[4]}&sort=units`, admin))[0],
      ids[4],
    );
  }));

Deno.test("bad paging values fall back to the defaults, and a page past the end shows the last", () =>
  withAdminApp(async (t, admin) => {
    const ids = await stations(t, 30);
    for (
      const q of [
        "page=0",
        "page=-3",
        "page=abc",
        "size=7",
        "size=1e9",
        "sort=password",
        "dir=up",
        "page=1.5",
      ]
    ) {
      assert.deepEqual(rowIds(await page(t, `/admin/devices?${q}`, admin)), ids.slice(0, 25), q);
    }
    assert.deepEqual(rowIds(await page(t, "/admin/devices?page=99", admin)), ids.slice(25));
  }));

Deno.test("the dashboard's list is paged and its counts come from the kept counters", () =>
  withAdminApp(async (t, admin) => {
    const ids = await stations(t, 30);
    // Station 1 and its meter online: online; station 2 online but its meter not: not online.
    for (const id of [ids[0], ids[0] + 1, ids[1]]) await markOnline(t.deps.kv, id, Date.now());
    const html = await page(t, "/admin?tab=list&page=2", admin);
    assert.deepEqual(rowIds(html), ids.slice(25));
    assert.match(html, /href="\/admin\?tab=list"/);
    assert.match(html, /data-testid="online-count">1\/30 online</);
    assert.deepEqual(await answer(t, "/api/devices/stats", admin), {
      stationCount: 30,
      sensorCount: 30,
      onlineCount: 3,
      unitCount: 30,
    });
  }));

/** `n` tenants named "Inquilino 001"...; answers their ids. */
async function tenants(t: TestApp, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= n; i++) {
    const num = String(i).padStart(3, "0");
    const u = await createUser(t.deps.kv, {
      email: `inq${num}@test.mx`,
      full_name: `Inquilino ${num}`,
      role: "user",
      password_hash: "x",
    }, Date.now());
    ids.push(u.id);
  }
  return ids;
}

const userIds = (html: string) =>
  [...html.matchAll(/<tr data-user-id="(\d+)"/g)].map((m) => Number(m[1]));

Deno.test("the users page pages each tab, sorts by a column and searches by name, e-mail or id", () =>
  withAdminApp(async (t, admin) => {
    const ids = await tenants(t, 40);
    const first = await page(t, "/admin/users?tab=tenants", admin);
    assert.deepEqual(userIds(first), ids.slice(0, 25));
    assert.match(first, /1–25 of 40/);
    assert.match(first, /href="\/admin\/users\?tab=tenants&amp;page=2" rel="next"/);
    assert.deepEqual(
      userIds(await page(t, "/admin/users?tab=tenants&page=2", admin)),
      ids.slice(25),
    );
    const desc = await page(t, "/admin/users?tab=tenants&sort=email&dir=desc&size=50", admin);
    assert.deepEqual(userIds(desc), ids.slice().reverse());
    assert.deepEqual(
      userIds(await page(t, "/admin/users?tab=tenants&q=inq03", admin)),
      ids.slice(29, 39),
    );
    assert.deepEqual(userIds(await page(t, `/admin/users?tab=tenants&q=${ids[39]}`, admin)), [
      ids[39],
    ]);
    // The admins tab holds only the signed-in admin; the stat cards count every account.
    assert.equal(userIds(await page(t, "/admin/users?tab=admins&page=abc", admin)).length, 1);
    assert.deepEqual(await answer(t, "/api/users/stats", admin), {
      totalUsers: 41,
      totalCustomers: 0,
      totalTenants: 40,
      unusedCodes: 0,
    });
  }));

Deno.test("the unit bill list pages the period's bills and sorts by energy, keeping the pickers", () =>
  withAdminApp(async (t, admin) => {
    const zone = await createZone(t.deps.kv, defaultZone("Norte"), Date.now());
    const units = Array.from({ length: 30 }, (_, i) => ({
      draft: unitBillDraft({
        unit_id: `unit_${i + 1}`,
        station_id: 1,
        zone_id: zone.id,
        energy_consumption: 100 + i,
        ...billPeriod("2025-01"),
      }),
      prev: { key: [], value: null, versionstamp: null },
    }));
    const res = await writeStationBills(t.deps.kv, 1, "2025-01", units, null, Date.now());
    assert.ok(res.ok);
    const billIds = (html: string) =>
      [...html.matchAll(/<tr data-bill-id="(\d+)"/g)].map((m) => Number(m[1]));
    const base = `/admin/units-billing?zone_id=${zone.id}&year=2025&period=2025-01`;
    const first = await page(t, base, admin);
    assert.equal(billIds(first).length, 25);
    assert.match(first, /1–25 of 30/);
    assert.match(
      first,
      new RegExp(
        `href="/admin/units-billing\\?zone_id=${zone.id}&amp;year=2025&amp;period=2025-01&amp;page=2" rel="next"`,
      ),
    );
    const all = res.created.map((b) => b.id);
    const desc = await page(t, `${base}&sort=energy&dir=desc&page=2`, admin);
    assert.deepEqual(billIds(desc), all.slice(0, 5).reverse());
  }));

Deno.test("GET /api/devices and /api/users answer everything, or pages with limit and next_cursor", () =>
  withAdminApp(async (t, admin) => {
    await stations(t, 12);
    await tenants(t, 9);
    const get = async (path: string, status = 200) => {
      const res = await call(t, "GET", path, { token: admin });
      assert.equal(res.status, status, path);
      return await res.json();
    };
    const all = await get("/api/devices");
    assert.deepEqual(Object.keys(all), ["devices"]);
    assert.equal(all.devices.length, 24);
    for (const filter of ["", "type=sensor&"]) {
      const want = (await get(`/api/devices?${filter}`)).devices;
      const walked: unknown[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 20; i++) {
        const q: string = `/api/devices?${filter}limit=5${cursor ? `&cursor=${cursor}` : ""}`;
        const page = await get(q);
        walked.push(...page.devices);
        cursor = page.next_cursor;
        if (cursor === null) break;
      }
      assert.deepEqual(walked, want, filter);
    }
    const users = (await get("/api/users")).users;
    const first = await get("/api/users?limit=4");
    assert.deepEqual(first.users, users.slice(0, 4));
    const rest = await get(`/api/users?cursor=${first.next_cursor}`);
    assert.deepEqual(rest.users, users.slice(4));
    assert.equal(rest.next_cursor, null);
    for (const bad of ["limit=0", "limit=abc", "limit=100000", "cursor=zzz", "cursor=%00"]) {
      await get(`/api/devices?${bad}`, 400);
      await get(`/api/users?${bad}`, 400);
    }
  }));

Deno.test("a zone's stations are paged and sorted, only that zone's", () =>
  withAdminApp(async (t, admin) => {
    await createZone(t.deps.kv, defaultZone("Norte"), Date.now()); // zone 1
    const zone = await createZone(t.deps.kv, defaultZone("Sur"), Date.now());
    const other = await stations(t, 3); // in zone 1
    const ids: number[] = [];
    for (let i = 1; i <= 27; i++) {
      const s = await bulkStation(t.deps.kv, {
        serial: `Z-${String(i).padStart(3, "0")}`,
        name: `Sur ${String(i).padStart(3, "0")}`,
        zoneId: zone.id,
        units: 1,
        sensorPrefix: `ZM${i}`,
      });
      ids.push(s.id);
    }
    const first = await page(t, `/admin/zones/${zone.id}`, admin);
    assert.deepEqual(rowIds(first), ids.slice(0, 25));
    assert.ok(!rowIds(first).some((id) => other.includes(id)));
    assert.match(first, /1–25 of 27/);
    const desc = await page(t, `/admin/zones/${zone.id}?sort=name&dir=desc&page=2`, admin);
    assert.deepEqual(rowIds(desc), ids.slice(0, 2).reverse());
  }));
