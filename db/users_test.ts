import assert from "node:assert/strict";
import {
  createUser,
  deleteUser,
  listUserRows,
  type NewUser,
  updateUser,
  userCounts,
} from "./users.ts";
import { createAccessCode, registerWithCode } from "./access_codes.ts";
import { withKv } from "../tests/_kv.ts";

const tenant = (i: number): NewUser => ({
  email: `t${i}@test.mx`,
  full_name: `Tenant ${i}`,
  role: "user",
  password_hash: "h",
});

Deno.test("role counts and list rows stay exact under concurrent creates, changes and deletes", () =>
  withKv(async (kv) => {
    const users = await Promise.all(
      Array.from({ length: 40 }, (_, i) => createUser(kv, tenant(i), 1)),
    );
    // The same e-mail twice at once: one account only.
    const twice = await Promise.allSettled([
      createUser(kv, tenant(99), 1),
      createUser(kv, tenant(99), 1),
    ]);
    assert.equal(twice.filter((r) => r.status === "fulfilled").length, 1);
    assert.deepEqual(await userCounts(kv), { admin: 0, customer: 0, user: 41 });
    await Promise.all([
      ...users.slice(0, 10).map((u) => deleteUser(kv, u.id)),
      ...users.slice(0, 10).map((u) => deleteUser(kv, u.id)), // deleted twice: counted once
      ...users.slice(10, 15).map((u) => updateUser(kv, u.id, { role: "customer" }, 2)),
      ...users.slice(15, 20).map((u) => updateUser(kv, u.id, { full_name: "Renamed" }, 2)),
    ]);
    assert.deepEqual(await userCounts(kv), { admin: 0, customer: 5, user: 26 });
    const rows = await listUserRows(kv, "user");
    assert.equal(rows.length, 26);
    assert.equal(rows.filter((r) => r.full_name === "Renamed").length, 5);
    assert.deepEqual(
      (await listUserRows(kv, "customer")).map((r) => r.id),
      users.slice(10, 15).map((u) => u.id).sort((a, b) => a - b),
    );
  }));

Deno.test("an account registered with an access code is counted and listed", () =>
  withKv(async (kv) => {
    await userCounts(kv);
    await createAccessCode(kv, {
      code: "ABCD1234",
      role: "customer",
      notes: "",
      assignments: { stations: [], units: [] },
    }, 1);
    const u = await registerWithCode(kv, "ABCD1234", {
      email: "c@test.mx",
      full_name: "Cliente",
      password_hash: "h",
    }, 1);
    assert.equal(typeof u, "object");
    assert.deepEqual(await userCounts(kv), { admin: 0, customer: 1, user: 0 });
    assert.equal((await listUserRows(kv, "customer"))[0].email, "c@test.mx");
  }));
