/**
 * No CSV export hands a spreadsheet a formula (issue 25, item 3): names starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return (a station's, a unit's, a tenant's, an owner's, a zone's)
 * come out with a leading `'` in every export, and the portal's own figures stay numbers.
 */
import assert from "node:assert/strict";
import { call } from "../_helpers.ts";
import { billingWorld, meter } from "../_billing_world.ts";
import { updateDevice } from "../../db/devices.ts";
import { runBilling } from "../../services/billing/mod.ts";
import { csvNumber, csvText } from "../../routes/_csv.ts";

/** Thursday 2026-12-03 09:00 in the business time zone (UTC−6). */
const T0 = Date.parse("2026-12-03T15:00:00.000Z");
const PREFIXES = ["=", "+", "-", "@", "\t", "\r"];

/** Fields of RFC 4180 text (quoted fields may hold commas, quotes and line breaks). */
function csvCells(text: string): string[][] {
  const rows: string[][] = [[]];
  let cell = "";
  let quoted = false;
  const s = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (quoted) {
      if (ch === '"' && s[i + 1] === '"') cell += s[++i];
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") rows.at(-1)!.push(cell), cell = "";
    else if (ch === "\r" && s[i + 1] === "\n") {
      rows.at(-1)!.push(cell), cell = "";
      if (++i < s.length - 1) rows.push([]);
    } else cell += ch;
  }
  return rows;
}

/** Every CSV export: its address, who downloads it, whether it shows names people typed. */
function exportsOf(period: string, zoneId: number) {
  const q = `zone_id=${zoneId}&period=${period}`;
  const admin = [
    "units-billing",
    "stations-billing",
    "billing",
    "bimester-billing",
    "customer-billing",
    "bimester-customer-billing",
  ].map((page) => ({ path: `/admin/${page}/export.csv?${q}`, who: "admin", names: true }));
  return [
    ...admin,
    { path: "/admin/finances/export/details.csv?currency=MXN", who: "admin", names: false },
    { path: "/admin/finances/export/bimonthly.csv?currency=MXN", who: "admin", names: false },
    { path: "/admin/finances/export/zones.csv?currency=MXN", who: "admin", names: true },
    { path: `/customer/billing/export/units.csv?period=${period}`, who: "owner", names: true },
    { path: `/customer/billing/export/customer.csv?period=${period}`, who: "owner", names: true },
  ] as const;
}

for (const p of PREFIXES) {
  Deno.test(`every CSV export neutralizes names starting with ${JSON.stringify(p)}`, async () => {
    const evil = (what: string) => `${p}HYPERLINK("http://pay.example/${what}","Pay here")`;
    const w = await billingWorld({
      now: T0,
      owner: { full_name: evil("owner") },
      zone: { name: evil("zone") },
      tenants: [{ full_name: evil("tenant") }, { full_name: evil("tenant") }],
    });
    try {
      // Stored as they are (older data, an import): the export must not trust the form's rules.
      const renamed = await updateDevice(w.t.deps.kv, w.stationId, (cur) => ({
        ...cur,
        name: evil("station"),
        config: {
          ...cur.config,
          station: {
            ...cur.config.station!,
            units: cur.config.station!.units.map((u) => ({ ...u, name: evil("unit") })),
          },
        },
      }));
      assert.ok(renamed.ok);
      await meter(w.t, "SIM-A", "2026-11", 200);
      await meter(w.t, "SIM-B", "2026-11", 300.5);
      assert.deepEqual((await runBilling(w.t.deps, w.zoneId, "2026-11")).failures, []);
      for (const e of exportsOf("2026-11", w.zoneId)) {
        const token = e.who === "admin" ? w.admin : w.owner!.token;
        const res = await call(w.t, "GET", e.path, { cookie: `token=${token}` });
        assert.equal(res.status, 200, e.path);
        const rows = csvCells(await res.text());
        assert.ok(rows.length > 1, `${e.path}: no rows`);
        for (const cell of rows.flat()) {
          const number = /^-?\d+(\.\d+)?$/.test(cell);
          assert.ok(number || !/^[=+\-@\t\r]/.test(cell), `${e.path}: ${JSON.stringify(cell)}`);
        }
        if (e.names) {
          const shown = rows.flat().filter((c) => c.startsWith(`'${p}HYPERLINK(`));
          assert.ok(shown.length > 0, `${e.path} shows no name: ${JSON.stringify(rows)}`);
        }
      }
    } finally {
      w.t.close();
    }
  });
}

Deno.test("csvText(): the portal's figures stay numbers, a minus sign and all; text is neutralized", () => {
  const text = csvText([[csvNumber(-12.5, 2), -3, "-12.50", "@SUM(A1)", "Ana", "=1,2"]]);
  assert.equal(text, "\uFEFF-12.50,-3,'-12.50,'@SUM(A1),Ana,\"'=1,2\"\r\n");
});
