/**
 * The audit trail: each audited change is written with its entry (who, from where, before and
 * after of the changed fields), an admin's sign-in is recorded, a refused change writes none,
 * and the trail is read only, by admins (`GET /api/audit-log`, `/admin/audit` and its CSV).
 */
import assert from "node:assert/strict";
import {
  account,
  adminTest,
  call,
  postSensor,
  postStation,
  type TestApp,
  testApp,
  zoneBody,
} from "./_helpers.ts";
import { billingWorld, meter } from "./_billing_world.ts";
import type { AuditEntry } from "../core/audit.ts";
import { listUnitBills } from "../db/bills.ts";
import { loadConfig } from "../services/platform/config.ts";

/** The trail as the API answers it, newest first (asserting a 200). */
async function trail(t: TestApp, token: string, query = ""): Promise<AuditEntry[]> {
  const res = await call(t, "GET", `/api/audit-log?limit=200${query}`, { token });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()).entries;
}

/** The newest entry of `kind` (asserting there is one). */
async function last(t: TestApp, token: string, kind: string): Promise<AuditEntry> {
  const [e] = await trail(t, token, `&kind=${kind}`);
  assert.ok(e, `no ${kind} entry`);
  return e;
}

async function ok(res: Response, status = 200) {
  assert.equal(res.status, status, await res.clone().text());
  return res.status === 204 ? null : await res.json();
}

adminTest(
  "account changes: create, role, activation, deletion, with before and after",
  async ({ t, admin }) => {
    const made = await ok(
      await call(t, "POST", "/api/users", {
        token: admin.token,
        json: { email: "ana@test.mx", full_name: "Ana", role: "user", password: "Str0ng-pass!" },
      }),
      201,
    );
    const created = await last(t, admin.token, "user.create");
    assert.equal(created.object, `user:${made.id}`);
    assert.deepEqual(created.actor, {
      id: admin.user.id,
      email: admin.user.email,
      address: "local",
    });
    assert.equal(created.before, null);
    assert.equal(created.after?.email, "ana@test.mx");
    assert.equal(created.after?.password_hash, "(changed)", "no hash in the trail");

    await ok(
      await call(t, "PUT", `/api/users/${made.id}`, {
        token: admin.token,
        json: { email: "ana@test.mx", full_name: "Ana", role: "customer" },
      }),
    );
    const role = await last(t, admin.token, "user.update");
    assert.equal(role.before?.role, "user");
    assert.equal(role.after?.role, "customer");
    assert.ok(!("full_name" in (role.after ?? {})), "only changed fields");

    await ok(await call(t, "POST", `/api/users/${made.id}/toggle`, { token: admin.token }));
    const toggled = await last(t, admin.token, "user.toggle");
    assert.deepEqual([toggled.before?.is_active, toggled.after?.is_active], [true, false]);

    await ok(await call(t, "DELETE", `/api/users/${made.id}`, { token: admin.token }));
    const gone = await last(t, admin.token, "user.delete");
    assert.equal(gone.before?.email, "ana@test.mx");
    assert.equal(gone.after, null);
  },
);

adminTest("a refused change writes no entry", async ({ t, admin }) => {
  const other = await account(t, "user", { email: "taken@test.mx" });
  const me = await account(t, "user");
  const res = await call(t, "PUT", `/api/users/${me.user.id}`, {
    token: admin.token,
    json: { email: "taken@test.mx", full_name: "X", role: "user" },
  });
  assert.equal(res.status, 400);
  await res.body?.cancel();
  assert.deepEqual(await trail(t, admin.token, "&kind=user.update"), []);
  assert.ok(other);
});

adminTest("zone prices and terms: before and after of the changed fields", async ({ t, admin }) => {
  const zone = await ok(
    await call(t, "POST", "/api/zones", { token: admin.token, json: zoneBody() }),
    201,
  );
  const made = await last(t, admin.token, "zone.create");
  assert.equal(made.object, `zone:${zone.id}`);
  await ok(
    await call(t, "PUT", `/api/zones/${zone.id}`, {
      token: admin.token,
      json: zoneBody({ base_tariff: 75, customer_commission: 12 }),
    }),
  );
  const changed = await last(t, admin.token, "zone.update");
  assert.equal(changed.before?.base_tariff, 50);
  assert.equal(changed.after?.base_tariff, 75);
  assert.equal(changed.before?.customer_commission, 10);
  assert.equal(changed.after?.customer_commission, 12);
  assert.ok(!("name" in (changed.after ?? {})));
  await ok(await call(t, "DELETE", `/api/zones/${zone.id}`, { token: admin.token }));
  assert.equal((await last(t, admin.token, "zone.delete")).before?.name, "Zona Norte");
});

adminTest("access codes: created and deleted", async ({ t, admin }) => {
  const code = await ok(
    await call(t, "POST", "/api/users/access-codes", {
      token: admin.token,
      json: { code: "ABCDEFGH", role: "customer", notes: "for Ana" },
    }),
    201,
  );
  const made = await last(t, admin.token, "access_code.create");
  assert.equal(made.object, `access_code:${code.id}`);
  assert.equal(made.after?.notes, "for Ana");
  await ok(await call(t, "DELETE", `/api/users/access-codes/${code.id}`, { token: admin.token }));
  assert.equal((await last(t, admin.token, "access_code.delete")).before?.code, code.code);
});

adminTest("devices: station ownership and MQTT credentials", async ({ t, admin }) => {
  const owner = await account(t, "customer");
  const station = await postStation(t, admin.token, {
    name: "Norte",
    serial: "ST-1",
    mqtt: { username: "st-1", password: "station-pass-1" },
    units: [{ id: "unit_1" }],
  });
  assert.equal((await last(t, admin.token, "device.create")).object, `device:${station}`);
  await ok(
    await call(t, "POST", "/api/devices/assign-customer", {
      token: admin.token,
      json: { customer_id: owner.user.id, station_ids: [station] },
    }),
  );
  const owned = await last(t, admin.token, "device.update");
  assert.equal(owned.before?.customer_id, null);
  assert.equal(owned.after?.customer_id, owner.user.id);

  const sensor = await postSensor(t, admin.token, station, {
    serial: "SN-1",
    unit: "unit_1",
    mqtt: { username: "sn-1", password: "sensor-pass-12" },
  });
  const body = await ok(
    await call(t, "GET", `/api/devices/${station}/sensors/${sensor}`, { token: admin.token }),
  );
  const res = await call(t, "PUT", `/api/devices/${station}/sensors/${sensor}`, {
    token: admin.token,
    json: {
      ...body,
      config: { ...body.config, mqtt: { username: "sn-1", password: "a-new-pass-123" } },
    },
  });
  await ok(res);
  const creds = await last(t, admin.token, "device.credentials");
  assert.equal(creds.object, `device:${sensor}`);
  assert.ok(!JSON.stringify(creds).includes("a-new-pass-123"), "no password in the trail");

  const tenant = await account(t, "user");
  await ok(
    await call(t, "POST", "/api/devices/assign-tenant", {
      token: admin.token,
      json: { tenant_id: tenant.user.id, sensor_ids: [sensor] },
    }),
  );
  const moved = await last(t, admin.token, "tenancy.change");
  assert.equal(moved.object, `device:${sensor}`);
  assert.deepEqual(moved.before, { tenancies: [] });
  assert.equal((moved.after?.tenancies as { tenant_id: number }[])[0].tenant_id, tenant.user.id);
});

Deno.test("billing: a run, a recalculation with its reason, a recorded payment, a deleted bill", async () => {
  const NOW = Date.parse("2026-12-03T15:00:00.000Z");
  const w = await billingWorld({ now: NOW });
  try {
    await meter(w.t, "SIM-A", "2026-11", 200);
    await meter(w.t, "SIM-B", "2026-11", 100);
    await ok(
      await call(w.t, "POST", "/api/unified-billing/process", {
        token: w.admin,
        json: { period: "2026-11", zone_id: w.zoneId },
      }),
    );
    const run = await last(w.t, w.admin, "billing.run");
    assert.equal(run.object, `zone:${w.zoneId}/2026-11`);
    assert.deepEqual(run.after?.stations, [w.stationId]);
    assert.equal(run.after?.unit_bills, 2);

    const [a, b] = (await listUnitBills(w.t.deps.kv)).sort((x, y) => x.id - y.id);
    await ok(
      await call(w.t, "PUT", `/api/bills/${a.id}`, {
        token: w.admin,
        json: {
          override_reason: "meter read on site",
          recalculation_method: "manual_input",
          energy_consumption: 150,
        },
      }),
    );
    const recalc = await last(w.t, w.admin, "billing.recalculate");
    assert.equal(recalc.reason, "meter read on site");
    assert.equal(recalc.object, `bill:${a.id}`);
    assert.equal(recalc.before?.energy_consumption, 200);
    assert.equal(recalc.after?.energy_consumption, 150);

    await ok(
      await call(w.t, "POST", `/api/bills/${a.id}/payments`, {
        token: w.admin,
        json: { method: "cash", payment_date: "2026-12-03", reference: "R-1" },
      }),
    );
    const paid = await last(w.t, w.admin, "payment.record");
    assert.equal(paid.before?.payment_status, "pending");
    assert.equal(paid.after?.payment_status, "paid");

    await ok(await call(w.t, "DELETE", `/api/bills/${b.id}`, { token: w.admin }));
    const del = await last(w.t, w.admin, "bill.delete");
    assert.equal(del.object, `bill:${b.id}`);
    assert.equal(del.after, null);
    assert.equal(del.before?.unit_id, "unit_2");
  } finally {
    w.t.close();
  }
});

Deno.test("an admin's sign-in is recorded with the address TRUST_PROXY derives; a tenant's not", async () => {
  const t = await testApp({
    config: loadConfig({ DATA_DIR: "/nonexistent", TRUST_PROXY: "10.0.0.1" }),
  });
  try {
    const admin = await account(t, "admin");
    const tenant = await account(t, "user");
    for (const who of [admin, tenant]) {
      // Through the trusted proxy at 10.0.0.1, from 203.0.113.7.
      const res = await t.app.request("http://localhost/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.7" },
        body: JSON.stringify({ email: who.user.email, password: who.password }),
      }, { remoteAddr: { hostname: "10.0.0.1" } });
      await ok(res);
    }
    const entries = await trail(t, admin.token, "&kind=sign_in");
    assert.equal(entries.length, 1);
    assert.deepEqual(entries[0].actor, {
      id: admin.user.id,
      email: admin.user.email,
      address: "203.0.113.7",
    });
  } finally {
    t.close();
  }
});

adminTest(
  "the trail: admins only, filters, cursor pages, no route edits or deletes",
  async ({ t, admin }) => {
    const tenant = await account(t, "user");
    const denied = await call(t, "GET", "/api/audit-log", { token: tenant.token });
    assert.equal(denied.status, 403);
    await denied.body?.cancel();
    for (let i = 0; i < 5; i++) {
      await ok(
        await call(t, "POST", "/api/zones", {
          token: admin.token,
          json: zoneBody({ name: `Z${i}` }),
        }),
        201,
      );
    }
    const all = await trail(t, admin.token);
    const first = await ok(await call(t, "GET", "/api/audit-log?limit=2", { token: admin.token }));
    assert.deepEqual(first.entries.map((e: AuditEntry) => e.id), all.slice(0, 2).map((e) => e.id));
    const second = await ok(
      await call(t, "GET", `/api/audit-log?limit=2&cursor=${first.next_cursor}`, {
        token: admin.token,
      }),
    );
    assert.deepEqual(second.entries.map((e: AuditEntry) => e.id), all.slice(2, 4).map((e) => e.id));
    assert.equal((await trail(t, admin.token, `&actor=${admin.user.id}`)).length, all.length);
    assert.equal((await trail(t, admin.token, `&actor=${tenant.user.id}`)).length, 0);
    assert.equal((await trail(t, admin.token, `&object=${all[0].object}`)).length, 1);

    for (const q of ["limit=0", "cursor=../x", "kind=nothing", "actor=abc"]) {
      const res = await call(t, "GET", `/api/audit-log?${q}`, { token: admin.token });
      assert.equal(res.status, 400, q);
      assert.ok((await res.json()).message);
    }
    for (const method of ["PUT", "PATCH", "DELETE", "POST"]) {
      const res = await call(t, method, `/api/audit-log/${all[0].id}`, {
        token: admin.token,
        json: {},
      });
      assert.equal(res.status, 404, method);
      await res.body?.cancel();
    }
    assert.equal((await trail(t, admin.token)).length, all.length);

    const page = await call(t, "GET", "/admin/audit?kind=zone.create", { token: admin.token });
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.equal(html.match(/data-audit-id=/g)?.length, 5);
    const csv = await call(t, "GET", "/admin/audit?kind=zone.create&format=csv", {
      token: admin.token,
    });
    assert.match(csv.headers.get("content-type") ?? "", /text\/csv/);
    const lines = (await csv.text()).trim().split("\r\n");
    assert.equal(lines.length, 6);
    assert.match(lines[1], /zone\.create/);
  },
);

Deno.test("every kind of entry has its name in each language", async () => {
  const t = await testApp();
  try {
    const { AUDIT_KINDS } = await import("../core/audit.ts");
    for (const lang of ["es", "en", "de"] as const) {
      const tr = t.deps.i18n.t(lang);
      for (const k of AUDIT_KINDS) {
        const name = tr(`audit.kinds.${k}`);
        assert.ok(!name.startsWith("audit."), `${lang}: ${k}`);
      }
    }
  } finally {
    t.close();
  }
});
