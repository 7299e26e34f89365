/**
 * Create Access Code on a large fleet: the checklists show the ticked choices and 50 of the
 * others, say how many match, and a search (its button, or Enter after changing its text)
 * re-renders with what matches, keeping the ticks; only Create creates.
 */
import assert from "node:assert/strict";
import { call, type TestApp, withAdminApp } from "./_helpers.ts";
import { bulkStations } from "./_bulk_stations.ts";
import { listAccessCodes } from "../db/access_codes.ts";

/** `n` stations "Torre 001"... with one unit each; answers them with their sensors' ids. */
async function towers(t: TestApp, n: number) {
  const stations = await bulkStations(t.deps.kv, n, { name: "Torre", prefix: "T", units: 1 });
  // The sensor is the device after its station.
  return stations.map((s) => ({ id: s.id, unit: `${s.id + 1}:unit_1` }));
}

/** The values of the boxes named `name`, and which of them are ticked. */
function boxes(html: string, name: string) {
  const all: string[] = [];
  const ticked: string[] = [];
  for (const m of html.matchAll(/<input type="checkbox"[^>]*>/g)) {
    const tag = m[0];
    if (!tag.includes(`name="${name}"`)) continue;
    const value = /value="([^"]*)"/.exec(tag)![1];
    all.push(value);
    if (/\schecked=""/.test(tag)) ticked.push(value);
  }
  return { all, ticked };
}

async function post(t: TestApp, admin: string, form: Record<string, string | string[]>) {
  return await call(t, "POST", "/admin/access-codes/create", { token: admin, form });
}

Deno.test("the checklists show 50 choices, say how many match, and search by name", () =>
  withAdminApp(async (t, admin) => {
    const st = await towers(t, 60);
    const res = await call(t, "GET", "/admin/access-codes/create", { token: admin });
    assert.equal(res.status, 200);
    const html = await res.text();
    assert.deepEqual(boxes(html, "stations").all, st.slice(0, 50).map((s) => String(s.id)));
    assert.deepEqual(boxes(html, "units").all, st.slice(0, 50).map((s) => s.unit));
    assert.equal(
      html.match(/<p class="hint">Showing 50 of 60; search to find others\.<\/p>/g)?.length,
      2,
    );

    const found = await (await call(t, "GET", "/admin/access-codes/create?q=torre%20059", {
      token: admin,
    })).text();
    assert.deepEqual(boxes(found, "stations").all, [String(st[58].id)]);
    assert.deepEqual(boxes(found, "units").all, [st[58].unit]);
    assert.doesNotMatch(found, /<p class="hint">Showing/);
    const none = await (await call(t, "GET", "/admin/access-codes/create?q=nada", {
      token: admin,
    })).text();
    assert.equal(none.match(/<p class="muted">Nothing matches “nada”<\/p>/g)?.length, 2);
  }));

Deno.test("a search keeps the ticks, creates nothing, and Create assigns what was found", () =>
  withAdminApp(async (t, admin) => {
    const st = await towers(t, 60);
    const base = { code: "ABCD2345", role: "customer", notes: "" };
    // The search button, with the first station ticked.
    const searched = await post(t, admin, {
      ...base,
      stations: [String(st[0].id)],
      q: "Torre 060",
      q_shown: "",
      action: "search",
    });
    assert.equal(searched.status, 200);
    const html = await searched.text();
    assert.deepEqual(boxes(html, "stations"), {
      all: [String(st[0].id), String(st[59].id)],
      ticked: [String(st[0].id)],
    });
    assert.match(html, /name="q_shown" value="Torre 060"/);
    // Enter in the search field after changing it: the form's default is Create, but the
    // changed text makes it a search.
    const entered = await post(t, admin, { ...base, q: "Torre 01", q_shown: "Torre 060" });
    assert.equal(entered.status, 200);
    assert.equal(boxes(await entered.text(), "stations").all.length, 10); // 010 to 019
    assert.deepEqual(await listAccessCodes(t.deps.kv), [], "a search creates no code");

    const createdRes = await post(t, admin, {
      ...base,
      stations: [String(st[0].id), String(st[59].id)],
      q: "Torre 060",
      q_shown: "Torre 060",
    });
    assert.equal(createdRes.status, 303);
    const [code] = await listAccessCodes(t.deps.kv);
    assert.equal(code.code, "ABCD2345");
    assert.deepEqual(code.assignments.stations, [st[0].id, st[59].id]);
  }));

Deno.test("a fleet that fits in the checklists shows them whole, without a search", () =>
  withAdminApp(async (t, admin) => {
    const st = await towers(t, 3);
    const html = await (await call(t, "GET", "/admin/access-codes/create", { token: admin }))
      .text();
    assert.deepEqual(boxes(html, "stations").all, st.map((s) => String(s.id)));
    assert.doesNotMatch(html, /id="choice-q"/);
    assert.doesNotMatch(html, /<p class="hint">Showing/);
  }));
