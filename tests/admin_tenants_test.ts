/**
 * Tenants from the admin's side (the newcomer's issue): the Tenants tab shows the unit each
 * tenant holds and offers Create Tenant; the form creates the account and moves them into the
 * chosen unit on the move-in date (the tenant holding it moves out that day), and bad input
 * (a unit that is not a metered unit, a bad date) is answered 400 and creates nothing.
 */
import assert from "node:assert/strict";
import { call } from "./_helpers.ts";
import { billingWorld } from "./_billing_world.ts";
import { findUserByEmail } from "../db/users.ts";
import { tenanciesOfTenant } from "../db/tenancies.ts";

const T0 = Date.parse("2026-12-03T15:00:00.000Z");
const DAY_15 = Date.parse("2026-11-15T06:00:00.000Z"); // local midnight (UTC-6)

/** The `<tr>` of the user `id` in `html`. */
const rowOf = (html: string, id: number) =>
  new RegExp(`<tr[^>]*data-user-id="${id}"[\\s\\S]*?</tr>`).exec(html)?.[0] ?? "";

Deno.test("Create Tenant with a unit and a move-in date: the tenancy starts then, the list shows the unit", async () => {
  const w = await billingWorld({ now: T0, admin: { language: "en" } });
  try {
    const tab = await (await call(w.t, "GET", "/admin/users?tab=tenants", { token: w.admin }))
      .text();
    assert.match(rowOf(tab, w.tenants[0]), /Norte · Depto 1/);
    assert.match(
      tab,
      /href="\/admin\/users\/accounts-form\/user"[^>]*>[\s\S]{0,400}?Create Tenant<\/a>/,
    );
    const form = await (await call(w.t, "GET", "/admin/users/accounts-form/user", {
      token: w.admin,
    })).text();
    const unit = `${w.sensors[0]}:unit_1`;
    assert.match(form, new RegExp(`<option value="${unit}">Norte · Depto 1 · Medidor 1</option>`));
    assert.match(form, /<input id="move_in_date" type="date"[^>]*name="move_in_date"/);

    const res = await call(w.t, "POST", "/admin/users/accounts-form/user", {
      token: w.admin,
      form: {
        email: "nuevo@test.mx",
        full_name: "Nuevo Inquilino",
        role: "user",
        is_active: "on",
        password: "Clave-segura-9",
        unit,
        move_in_date: "2026-11-15",
      },
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), "/admin/users?tab=tenants&done=created");
    const created = await findUserByEmail(w.t.deps.kv, "nuevo@test.mx");
    assert.equal(created?.role, "user");
    const held = await tenanciesOfTenant(w.t.deps.kv, created!.id);
    assert.deepEqual(held.map((h) => [h.unit_id, h.from, h.to]), [["unit_1", DAY_15, null]]);
    const before = await tenanciesOfTenant(w.t.deps.kv, w.tenants[0]);
    assert.equal(before.at(-1)?.to, DAY_15, "the previous tenant moved out that day");

    const list = await (await call(w.t, "GET", "/admin/users?tab=tenants", { token: w.admin }))
      .text();
    assert.match(rowOf(list, created!.id), /Norte · Depto 1/);
    assert.match(rowOf(list, w.tenants[0]), /No unit/);
  } finally {
    w.t.close();
  }
});

Deno.test("Create Tenant refuses a unit without a meter or a bad date with 400 and creates nothing", async () => {
  const w = await billingWorld({ now: T0, admin: { language: "en" } });
  try {
    const base = {
      email: "malo@test.mx",
      full_name: "Malo",
      role: "user",
      is_active: "on",
      password: "Clave-segura-9",
    };
    for (
      const [extra, message] of [
        [{ unit: "999:unit_1" }, /That unit no longer has this meter/],
        [{ unit: `${w.sensors[0]}:unit_9` }, /That unit no longer has this meter/],
        [{ unit: "unit_1" }, /id="unit-error"/],
        [{ unit: `${w.sensors[0]}:unit_1`, move_in_date: "2026-02-30" }, /Enter a valid date/],
      ] as const
    ) {
      const res = await call(w.t, "POST", "/admin/users/accounts-form/user", {
        token: w.admin,
        form: { ...base, ...extra },
      });
      assert.equal(res.status, 400, JSON.stringify(extra));
      assert.match(await res.text(), message);
      assert.equal(await findUserByEmail(w.t.deps.kv, "malo@test.mx"), null);
    }
    assert.deepEqual(await tenanciesOfTenant(w.t.deps.kv, w.tenants[0]), [], "no move made");
  } finally {
    w.t.close();
  }
});
