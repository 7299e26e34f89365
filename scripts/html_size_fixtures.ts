/**
 * Byte size of the HTML (uncompressed) of the list pages with the test fixtures: an
 * in-process app (`tests/_helpers.ts`) with 50 stations of 4 units, 50 tenants, 50
 * customers and 50 access codes, fetched by an admin without any network.
 *
 * Usage: deno run -A scripts/html_size_fixtures.ts [count]
 */
import { account, call, testApp } from "../tests/_helpers.ts";
import { bulkStation } from "../tests/_bulk_stations.ts";
import { createAccessCode } from "../db/access_codes.ts";

const out = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));
const n = Number(Deno.args[0] ?? 50);

const t = await testApp();
try {
  const admin = await account(t, "admin");
  for (let i = 1; i <= n; i++) {
    const serial = `ST-${String(i).padStart(3, "0")}`;
    await bulkStation(t.deps.kv, {
      serial,
      name: `Estación ${i}`,
      zoneId: 1,
      units: 4,
      sensorPrefix: `S${i}`,
    });
    await account(t, "user");
    await account(t, "customer", { company_name: `Empresa ${i}` });
    await createAccessCode(t.deps.kv, {
      code: `CODE${String(i).padStart(4, "0")}`,
      role: i % 2 ? "user" : "customer",
      notes: `Nota ${i}`,
      assignments: { stations: [], units: [] },
    }, Date.now());
  }
  for (
    const path of [
      "/admin/devices",
      "/admin/users",
      "/admin/users?tab=customers",
      "/admin/users?tab=access-codes",
    ]
  ) {
    const res = await call(t, "GET", path, { token: admin.token });
    const bytes = new TextEncoder().encode(await res.text()).length;
    out(`${path}\t${res.status}\t${bytes} bytes`);
  }
} finally {
  t.close();
}
