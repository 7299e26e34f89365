/**
 * `limit` and `cursor` on the JSON lists of access codes and bills: without them every item as
 * before; with them pages in id order that, walked to the end, give every item once, and a
 * 400 for a bad limit or a cursor the API did not answer.
 */
import assert from "node:assert/strict";
import { call, seedAccessCode, type TestApp, withAdminApp } from "./_helpers.ts";
import { writeStationBills } from "../db/bills_run.ts";
import { billPeriod, customerBillDraft, fresh, unitBillDraft } from "./_bills.ts";

type Json = Record<string, unknown> & { next_cursor?: string | null };

async function get(t: TestApp, token: string, path: string, status = 200): Promise<Json> {
  const res = await call(t, "GET", path, { token });
  assert.equal(res.status, status, path);
  return await res.json();
}

/** Walks `path` (which has a query) page by page with `limit`; answers every item seen. */
async function walk(t: TestApp, token: string, path: string, name: string, limit: number) {
  const items: { id: number }[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const page: Json = await get(
      t,
      token,
      `${path}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    assert.deepEqual(Object.keys(page).sort(), [name, "next_cursor"].sort());
    const rows = page[name] as { id: number }[];
    assert.ok(rows.length <= limit);
    items.push(...rows);
    cursor = page.next_cursor ?? null;
    if (cursor === null) return items;
  }
  throw new Error(`${path}: no end after 100 pages`);
}

const ids = (items: { id: number }[]) => items.map((i) => i.id);
const sorted = (items: { id: number }[]) => ids(items).sort((a, b) => a - b);

Deno.test("GET /api/users/access-codes answers every code, or pages of them with next_cursor", () =>
  withAdminApp(async (t, admin) => {
    for (let i = 1; i <= 7; i++) await seedAccessCode(t.deps.kv, `CODE${i}`, "user");
    const all = await get(t, admin, "/api/users/access-codes");
    assert.deepEqual(Object.keys(all), ["codes"]);
    const codes = all.codes as { id: number; code: string }[];
    assert.equal(codes.length, 7);
    assert.equal(codes[0].code, "CODE7", "newest first without a page");

    const walked = await walk(t, admin, "/api/users/access-codes?", "codes", 3);
    assert.deepEqual(ids(walked), sorted(codes), "pages in id order, each code once");
    assert.deepEqual(walked.at(-1), codes[0], "the same records as the full list");

    const first = await get(t, admin, "/api/users/access-codes?limit=2");
    const rest = await get(t, admin, `/api/users/access-codes?cursor=${first.next_cursor}`);
    assert.deepEqual(ids(rest.codes as { id: number }[]), sorted(codes).slice(2));
    assert.equal(rest.next_cursor, null);

    const exact = await get(t, admin, "/api/users/access-codes?limit=7");
    assert.equal((exact.codes as unknown[]).length, 7);
    assert.equal(exact.next_cursor, null, "no cursor when nothing follows");
  }));

Deno.test("GET /api/bills and /api/customer-bills page in id order, every bill once", () =>
  withAdminApp(async (t, admin) => {
    for (const station of [1, 2]) {
      const units = Array.from({ length: 6 }, (_, i) =>
        fresh(unitBillDraft({
          unit_id: `unit_${i + 1}`,
          station_id: station,
          energy_consumption: 100 + i,
          ...billPeriod("2025-01"),
        })));
      const station_bill = fresh(
        customerBillDraft({ station_id: station, ...billPeriod("2025-01") }),
      );
      const res = await writeStationBills(
        t.deps.kv,
        station,
        "2025-01",
        units,
        station_bill,
        Date.now(),
      );
      assert.ok(res.ok);
    }
    for (
      const [path, name, count] of [
        ["/api/bills?billing_month=2025-01", "bills", 12],
        ["/api/bills?station_id=2", "bills", 6],
        ["/api/customer-bills?billing_month=2025-01", "bills", 2],
      ] as const
    ) {
      const all = (await get(t, admin, path))[name] as { id: number }[];
      assert.equal(all.length, count, path);
      const walked = await walk(t, admin, `${path}&`, name, 5);
      assert.deepEqual(ids(walked), sorted(all), path);
      assert.deepEqual(walked, [...all].sort((a, b) => a.id - b.id), `${path}: same JSON`);
    }
  }));

Deno.test("a bad limit or cursor on the code and bill lists is a 400 in the user's language", async () => {
  await withAdminApp(async (t, admin) => {
    await seedAccessCode(t.deps.kv, "CODEX", "user");
    for (const path of ["/api/users/access-codes", "/api/bills", "/api/customer-bills"]) {
      for (const bad of ["limit=0", "limit=abc", "limit=100000", "cursor=zzz", "cursor=%00"]) {
        const body = await get(t, admin, `${path}?${bad}`, 400);
        const field = bad.split("=")[0];
        assert.deepEqual(body, {
          message: "Invalid value",
          errors: { [field]: "Invalid value" },
        }, `${path}?${bad}`);
      }
    }
    const codes = (await get(t, admin, "/api/users/access-codes")).codes as unknown[];
    assert.equal(codes.length, 1, "a refused request changes nothing");
  });
  await withAdminApp(async (t, admin) => {
    assert.deepEqual(await get(t, admin, "/api/bills?cursor=zzz", 400), {
      message: "Valor no válido",
      errors: { cursor: "Valor no válido" },
    });
  }, { language: "es" });
});
