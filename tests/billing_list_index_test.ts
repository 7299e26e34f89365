/**
 * The admin's unit bill list read through the store's zone index answers what reading every
 * bill of the store answered: the same rows in the same order on every page, for every sort
 * and direction, the same totals, and the same year picker.
 */
import assert from "node:assert/strict";
import { withAdminApp } from "./_helpers.ts";
import { bulkStation } from "./_bulk_stations.ts";
import { billPeriod, unitBillDraft } from "./_bills.ts";
import { createUser } from "../db/users.ts";
import { createZone } from "../db/zones.ts";
import { defaultZone } from "../core/zone.ts";
import { periodOfBill } from "../core/bill.ts";
import { type PageSize, paginate, type SortDir, sortRows } from "../core/paging.ts";
import { listUnitBills, writeStationBills } from "../db/bills.ts";
import {
  billYears,
  UNIT_BILL_SORTS,
  unitBillPage,
  type UnitBillRow,
  unitBillRow,
  unitBillRows,
} from "../services/billing/mod.ts";

Deno.test("the unit bill list through the zone index shows what a scan of every bill shows", () =>
  withAdminApp(async (t) => {
    const kv = t.deps.kv;
    const north = await createZone(kv, defaultZone("Norte"), Date.now());
    const south = await createZone(kv, defaultZone("Sur"), Date.now());
    const tenants: (number | null)[] = [null, 999_999];
    for (const name of ["Zoe Ruiz", "ana Díaz", "Luis Peña", "Ana Diaz"]) {
      tenants.push(
        (await createUser(kv, {
          email: `${name.replaceAll(" ", ".").toLowerCase()}@x.mx`,
          full_name: name,
          role: "user",
          password_hash: "x",
        }, Date.now())).id,
      );
    }
    // Station names in another order than their ids; 3 units each (names sort numerically).
    const names = ["Ñandú", "Águila", "zorro", "Búho", "águila", "Cóndor", "Alce", "Mapache"];
    let n = 0;
    for (const [i, name] of names.entries()) {
      const st = await bulkStation(kv, {
        serial: `SN-${i}`,
        name,
        zoneId: north.id,
        units: 12,
        sensorPrefix: `M${i}`,
      });
      for (const period of ["2025-01", "2025-02"]) {
        const units = Array.from({ length: 12 }, (_, u) => {
          n++;
          const status = n % 7;
          return {
            draft: unitBillDraft({
              unit_id: `unit_${u + 1}`,
              station_id: st.id,
              // Every fifth bill of the station belongs to another zone.
              zone_id: u % 5 === 4 ? south.id : north.id,
              tenant_id: tenants[n % tenants.length],
              energy_consumption: 100 + (n % 9),
              total_cost: 1000 + (n % 4) * 10,
              is_finalized: status >= 3,
              is_estimation: status === 1 || status === 4,
              override_reason: status === 5 ? "meter replaced" : null,
              created_by: status === 6 ? "admin@x.mx" : null,
              payment_due_date: status >= 3 ? "2025-03-10" : null,
              ...billPeriod(period),
            }),
            prev: { key: [], value: null, versionstamp: null },
          };
        });
        assert.ok((await writeStationBills(kv, st.id, period, units, null, Date.now())).ok);
      }
    }

    // What the list answered when it read every bill of the store.
    const scanned = (await listUnitBills(kv)).filter((b) =>
      b.zone_id === north.id && periodOfBill(b) === "2025-01"
    );
    const rows: UnitBillRow[] = [];
    for (const b of scanned) rows.push((await unitBillRow(t.deps, b.id))!);
    assert.equal(rows.length, 80);
    const keyOf = (sort: string) => (r: UnitBillRow): string | number | null =>
      sort === "station"
        ? r.station
        : sort === "unit"
        ? r.unit
        : sort === "tenant"
        ? r.tenant
        : sort === "energy"
        ? r.energy_kwh
        : sort === "total"
        ? r.total_cost
        : r.status.key;

    for (const sort of UNIT_BILL_SORTS) {
      for (const dir of ["asc", "desc"] as SortDir[]) {
        const want = sort === "default"
          ? [...rows]
          : sortRows([...rows], keyOf(sort), dir, (r) => r.id);
        for (const [page, size] of [[1, 25], [2, 25], [4, 25], [9, 25], [2, 50], [1, 100]]) {
          const query = { page, size: size as PageSize, sort, dir, q: "" };
          const got = await unitBillPage(t.deps, north.id, "2025-01", false, query);
          const expected = paginate(want, query);
          const label = `${sort} ${dir} ${page} ${size}`;
          assert.deepEqual(got.rows.map((r) => r.id), expected.rows.map((r) => r.id), label);
          assert.deepEqual(got.rows, expected.rows, label);
          assert.deepEqual(
            { total: got.total, page: got.page, pages: got.pages, finalized: got.finalized },
            {
              total: expected.total,
              page: expected.page,
              pages: expected.pages,
              finalized: rows.filter((r) => r.is_finalized).length,
            },
            label,
          );
        }
      }
    }
    // The rows of the period at once (the CSV export) and a period without bills.
    assert.deepEqual(await unitBillRows(t.deps, north.id, "2025-01", false), rows);
    const empty = await unitBillPage(t.deps, north.id, "2025-03", false, {
      page: 3,
      size: 25,
      sort: "default",
      dir: "asc",
      q: "",
    });
    assert.deepEqual(empty, { rows: [], total: 0, page: 1, size: 25, pages: 1, finalized: 0 });

    // The year picker: the zones' years from their counters.
    await writeStationBills(
      kv,
      1,
      "2024-12",
      [{
        draft: unitBillDraft({ zone_id: south.id, ...billPeriod("2024-12") }),
        prev: { key: [], value: null, versionstamp: null },
      }],
      null,
      Date.now(),
    );
    const years = await billYears(t.deps, "units");
    assert.deepEqual(years.get(north.id), [2025]);
    assert.deepEqual(years.get(south.id)?.sort(), [2024, 2025]);
  }));
