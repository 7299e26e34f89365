/** The users and access codes API (`/api/users*`) and the profile, through `app.request`. */
import assert from "node:assert/strict";
import {
  account,
  adminTest,
  appTest,
  call,
  createdWithout,
  putProfile,
  type TestApp,
} from "./_helpers.ts";
import { getUser, listUsers } from "../db/users.ts";
import { getAccessCode } from "../db/access_codes.ts";
import { ACCESS_CODE_ALPHABET } from "../core/access_code.ts";

/** Signs in through POST /auth/login and answers the status. */
async function signInStatus(t: TestApp, email: string, password: string): Promise<number> {
  const res = await call(t, "POST", "/auth/login", { json: { email, password } });
  await res.body?.cancel();
  return res.status;
}

const NEW_CUSTOMER = {
  email: " Solar.Owner@Test.MX ",
  full_name: "Solar Owner",
  phone: "+52 55 0000 1111",
  role: "customer",
  company_name: "Solar SA de CV",
  tax_id: "SOL010101AAA",
  password: "secret1",
};

appTest("GET /api/users lists every account, by role and by search", async (t) => {
  const admin = await account(t, "admin", { full_name: "Main Admin" });
  const c1 = await account(t, "customer", { full_name: "Carla Dueña", email: "carla@test.mx" });
  const c2 = await account(t, "customer", { full_name: "Pedro Owner" });
  const u1 = await account(t, "user", { full_name: "Tina Tenant" });

  const all = await call(t, "GET", "/api/users", { token: admin.token });
  assert.equal(all.status, 200);
  const text = await all.text();
  assert.ok(!text.includes("password_hash"));
  const ids = JSON.parse(text).users.map((u: { id: number }) => u.id).sort();
  assert.deepEqual(ids, [admin.user.id, c1.user.id, c2.user.id, u1.user.id].sort());

  const customers = await (await call(t, "GET", "/api/users?role=customer", {
    token: admin.token,
  })).json();
  assert.deepEqual(
    customers.users.map((u: { id: number }) => u.id).sort(),
    [c1.user.id, c2.user.id].sort(),
  );
  const tenants = await (await call(t, "GET", "/api/users?role=user", { token: admin.token }))
    .json();
  assert.deepEqual(tenants.users.map((u: { id: number }) => u.id), [u1.user.id]);

  const byName = await (await call(t, "GET", "/api/users?search=DUEÑA", { token: admin.token }))
    .json();
  assert.deepEqual(byName.users.map((u: { id: number }) => u.id), [c1.user.id]);
  const byEmail = await (await call(t, "GET", "/api/users?role=customer&search=carla@", {
    token: admin.token,
  })).json();
  assert.deepEqual(byEmail.users.map((u: { id: number }) => u.id), [c1.user.id]);
  const none = await (await call(t, "GET", "/api/users?role=user&search=carla", {
    token: admin.token,
  })).json();
  assert.deepEqual(none.users, []);

  const bad = await call(t, "GET", "/api/users?role=owner", { token: admin.token });
  assert.equal(bad.status, 400);
  assert.deepEqual((await bad.json()).errors, { role: "Choose a valid role" });
});

adminTest(
  "POST /api/users creates an account (201) with its fields and no hash",
  async ({ t, admin }) => {
    const res = await call(t, "POST", "/api/users", { token: admin.token, json: NEW_CUSTOMER });
    const user = await createdWithout(res, ["password_hash", "secret1"]);
    assert.equal(typeof user.id, "number");
    assert.equal(user.email, "solar.owner@test.mx");
    assert.equal(user.full_name, "Solar Owner");
    assert.equal(user.phone, "+52 55 0000 1111");
    assert.equal(user.role, "customer");
    assert.equal(user.is_active, true);
    assert.equal(user.company_name, "Solar SA de CV");
    assert.equal(user.tax_id, "SOL010101AAA");
    assert.equal(user.language, "es");
    assert.equal(await signInStatus(t, "solar.owner@test.mx", "secret1"), 200);

    const inactive = await call(t, "POST", "/api/users", {
      token: admin.token,
      json: { ...NEW_CUSTOMER, email: "off@test.mx", role: "admin", is_active: false },
    });
    assert.equal(inactive.status, 201);
    const off = await inactive.json();
    assert.equal(off.is_active, false);
    assert.equal(off.company_name, "", "company name is for customers only");
    assert.equal(await signInStatus(t, "off@test.mx", "secret1"), 403);
  },
);

adminTest(
  "POST /api/users with bad input answers 400 with verbatim English field errors",
  async ({ t, admin }) => {
    const before = (await listUsers(t.deps.kv)).length;

    const empty = await call(t, "POST", "/api/users", {
      token: admin.token,
      json: { role: "user" },
    });
    assert.equal(empty.status, 400);
    const emptyBody = await empty.json();
    assert.equal(emptyBody.message, "Failed to create account");
    assert.deepEqual(emptyBody.errors, {
      email: "Email is required",
      full_name: "Full name is required",
      password: "Password is required",
    });

    const bad = await call(t, "POST", "/api/users", {
      token: admin.token,
      json: { email: "nope", full_name: "  ", role: "user", password: "12345" },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual((await bad.json()).errors, {
      email: "Please enter a valid email",
      full_name: "Full name is required",
      password: "Password must be at least 6 characters",
    });

    const blank = await call(t, "POST", "/api/users", {
      token: admin.token,
      json: { ...NEW_CUSTOMER, email: "", password: "" },
    });
    assert.deepEqual((await blank.json()).errors, {
      email: "Email is required",
      password: "Password is required",
    });

    for (
      const body of [
        "{",
        "null",
        "[]",
        JSON.stringify({ ...NEW_CUSTOMER, role: "root" }),
        JSON.stringify({ ...NEW_CUSTOMER, is_active: "yes" }),
      ]
    ) {
      const res = await call(t, "POST", "/api/users", {
        token: admin.token,
        body,
        headers: { "content-type": "application/json" },
      });
      assert.equal(res.status, 400, body);
      assert.equal(typeof (await res.json()).errors, "object", body);
    }
    assert.equal((await listUsers(t.deps.kv)).length, before, "nothing written");
  },
);

adminTest("POST /api/users refuses an e-mail that is already registered", async ({ t, admin }) => {
  await account(t, "user", { email: "taken@test.mx" });
  const res = await call(t, "POST", "/api/users", {
    token: admin.token,
    json: { ...NEW_CUSTOMER, email: "TAKEN@test.mx" },
  });
  assert.equal(res.status, 400);
  assert.deepEqual((await res.json()).errors, { email: "This email is already registered" });
  assert.equal((await listUsers(t.deps.kv)).filter((u) => u.email === "taken@test.mx").length, 1);
});

adminTest(
  "PUT /api/users/{id} updates an account; a blank password keeps the old one",
  async ({ t, admin }) => {
    const target = await account(t, "customer", { password: "original1" });
    const res = await call(t, "PUT", `/api/users/${target.user.id}`, {
      token: admin.token,
      json: {
        email: "Renamed@Test.MX",
        full_name: "Renamed Owner",
        phone: "555",
        role: "customer",
        is_active: true,
        company_name: "New Co",
        tax_id: "X1",
        password: "",
      },
    });
    assert.equal(res.status, 200);
    const user = await res.json();
    assert.equal(user.email, "renamed@test.mx");
    assert.equal(user.full_name, "Renamed Owner");
    assert.equal(user.company_name, "New Co");
    assert.equal(user.password_hash, undefined);
    assert.equal(await signInStatus(t, "renamed@test.mx", "original1"), 200);
    assert.equal(await signInStatus(t, target.user.email, "original1"), 401, "old e-mail is gone");

    const renamed = { email: "renamed@test.mx", full_name: "Renamed Owner", role: "customer" };
    const update = (json: unknown) =>
      call(t, "PUT", `/api/users/${target.user.id}`, { token: admin.token, json });
    const withPassword = await update({ ...renamed, password: "changed1" });
    assert.equal(withPassword.status, 200);
    assert.equal(await signInStatus(t, "renamed@test.mx", "changed1"), 200);
    assert.equal(await signInStatus(t, "renamed@test.mx", "original1"), 401);

    const short = await update({ ...renamed, password: "123" });
    assert.equal(short.status, 400);
    const shortBody = await short.json();
    assert.equal(shortBody.message, "Failed to update account");
    assert.deepEqual(shortBody.errors, { password: "Password must be at least 6 characters" });

    const other = await account(t, "user", { email: "other@test.mx" });
    const dup = await update({ ...renamed, email: other.user.email });
    assert.equal(dup.status, 400);
    assert.deepEqual((await dup.json()).errors, { email: "This email is already registered" });
    assert.equal((await getUser(t.deps.kv, target.user.id))?.email, "renamed@test.mx");

    const missing = await call(t, "PUT", "/api/users/999999", {
      token: admin.token,
      json: { email: "ghost@test.mx", full_name: "Ghost", role: "user" },
    });
    assert.equal(missing.status, 404);
  },
);

adminTest(
  "PUT /api/users/{id} from customer to tenant drops the stations (and back drops the units)",
  async ({ t, admin }) => {
    const { user: stored } = await account(t, "customer", {
      email: "owner@test.mx",
      full_name: "Station Owner",
      company_name: "Owner Co",
      assignments: { stations: [3, 4], units: [] },
    });
    const toTenant = await call(t, "PUT", `/api/users/${stored.id}`, {
      token: admin.token,
      json: { email: "owner@test.mx", full_name: "Station Owner", role: "user" },
    });
    assert.equal(toTenant.status, 200);
    const tenant = await toTenant.json();
    assert.equal(tenant.role, "user");
    assert.deepEqual(tenant.assignments, { stations: [], units: [] });
    assert.equal(tenant.company_name, "");
    assert.deepEqual((await getUser(t.deps.kv, stored.id))?.assignments, {
      stations: [],
      units: [],
    });

    const { user: renter } = await account(t, "user", {
      email: "renter@test.mx",
      full_name: "Unit Renter",
      password: "secret1",
      assignments: { stations: [], units: ["5:unit_1"] },
    });
    const toCustomer = await call(t, "PUT", `/api/users/${renter.id}`, {
      token: admin.token,
      json: { email: "renter@test.mx", full_name: "Unit Renter", role: "customer" },
    });
    assert.equal(toCustomer.status, 200);
    assert.deepEqual((await toCustomer.json()).assignments, { stations: [], units: [] });

    const { user: keep } = await account(t, "customer", {
      email: "keeper@test.mx",
      full_name: "Keeper",
      password: "secret1",
      assignments: { stations: [8], units: [] },
    });
    const same = await call(t, "PUT", `/api/users/${keep.id}`, {
      token: admin.token,
      json: { email: "keeper@test.mx", full_name: "Keeper Two", role: "customer" },
    });
    assert.deepEqual((await same.json()).assignments, { stations: [8], units: [] });
  },
);

adminTest(
  "POST /api/users/{id}/toggle flips is_active and a deactivated account is locked out",
  async ({ t, admin }) => {
    const target = await account(t, "user");
    const off = await call(t, "POST", `/api/users/${target.user.id}/toggle`, {
      token: admin.token,
    });
    assert.equal(off.status, 200);
    assert.equal((await off.json()).is_active, false);
    assert.equal(await signInStatus(t, target.user.email, target.password), 403);
    assert.equal((await call(t, "GET", "/auth/verify", { token: target.token })).status, 401);

    const on = await call(t, "POST", `/api/users/${target.user.id}/toggle`, { token: admin.token });
    assert.equal((await on.json()).is_active, true);
    assert.equal(await signInStatus(t, target.user.email, target.password), 200);

    const missing = await call(t, "POST", "/api/users/999999/toggle", { token: admin.token });
    assert.equal(missing.status, 404);
  },
);

adminTest(
  "DELETE /api/users/{id} answers 'User deleted successfully' and the account is gone",
  async ({ t, admin }) => {
    const target = await account(t, "customer");
    const res = await call(t, "DELETE", `/api/users/${target.user.id}`, { token: admin.token });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { message: "User deleted successfully" });
    assert.equal(await getUser(t.deps.kv, target.user.id), null);
    assert.equal(
      (await call(t, "GET", `/api/users/${target.user.id}`, { token: admin.token })).status,
      404,
    );
    assert.equal(
      (await call(t, "DELETE", `/api/users/${target.user.id}`, { token: admin.token })).status,
      404,
    );
    assert.equal(await signInStatus(t, target.user.email, target.password), 401);
    assert.equal((await call(t, "GET", "/auth/verify", { token: target.token })).status, 401);
  },
);

adminTest("an admin cannot delete, deactivate or demote themselves", async ({ t, admin }) => {
  const self = `/api/users/${admin.user.id}`;
  const del = await call(t, "DELETE", self, { token: admin.token });
  assert.equal(del.status, 400);
  assert.equal((await del.json()).message, "You cannot delete your own account");
  const toggle = await call(t, "POST", `${self}/toggle`, { token: admin.token });
  assert.equal(toggle.status, 400);
  assert.equal((await toggle.json()).message, "You cannot deactivate your own account");
  const demote = await call(t, "PUT", self, {
    token: admin.token,
    json: { email: admin.user.email, full_name: "Me", role: "customer" },
  });
  assert.equal(demote.status, 400);
  assert.equal(
    (await demote.json()).errors.role,
    "You cannot remove your own admin role or deactivate yourself",
  );
  const deactivate = await call(t, "PUT", self, {
    token: admin.token,
    json: { email: admin.user.email, full_name: "Me", role: "admin", is_active: false },
  });
  assert.equal(deactivate.status, 400);
  const stored = await getUser(t.deps.kv, admin.user.id);
  assert.equal(stored?.role, "admin");
  assert.equal(stored?.is_active, true);
});

adminTest("GET /api/users/stats counts accounts by role and unused codes", async ({ t, admin }) => {
  await account(t, "admin");
  for (let i = 0; i < 2; i++) await account(t, "customer");
  for (let i = 0; i < 3; i++) await account(t, "user");
  for (const code of ["AAAA2345", "BBBB2345", "CCCC2345"]) {
    const res = await call(t, "POST", "/api/users/access-codes", {
      token: admin.token,
      json: { code, role: "user" },
    });
    assert.equal(res.status, 201);
  }
  const reg = await call(t, "POST", "/auth/register", {
    json: {
      email: "new@test.mx",
      password: "secret1",
      full_name: "New Tenant",
      phone: "+525512345678",
      accessCode: "CCCC2345",
    },
  });
  assert.equal(reg.status, 201);
  const res = await call(t, "GET", "/api/users/stats", { token: admin.token });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    totalUsers: 8,
    totalCustomers: 2,
    totalTenants: 4,
    unusedCodes: 2,
  });
});

adminTest(
  "POST /api/users/access-codes creates a code from the 8-character alphabet",
  async ({ t, admin }) => {
    const res = await call(t, "POST", "/api/users/access-codes", {
      token: admin.token,
      json: {
        code: " hjkm2345 ",
        role: "user",
        assignments: { stations: [1], units: ["12:unit_1", "12:unit_1", "13:unit_2"] },
        notes: "Unit 1 and 2",
      },
    });
    assert.equal(res.status, 201);
    const code = await res.json();
    assert.equal(code.code, "HJKM2345");
    assert.equal(code.role, "user");
    assert.equal(code.notes, "Unit 1 and 2");
    assert.deepEqual(code.assignments, { stations: [], units: ["12:unit_1", "13:unit_2"] });
    assert.equal(code.is_used, false);
    assert.equal(code.used_by_id, null);
    assert.equal(code.used_by_email, null);
    assert.equal(typeof code.created_at, "number");
    for (const ch of code.code) assert.ok(ACCESS_CODE_ALPHABET.includes(ch));

    const customer = await call(t, "POST", "/api/users/access-codes", {
      token: admin.token,
      json: {
        code: "CUST2345",
        role: "customer",
        assignments: { stations: ["4", 5], units: ["1:unit_1"] },
      },
    });
    assert.equal(customer.status, 201);
    assert.deepEqual((await customer.json()).assignments, { stations: [4, 5], units: [] });
  },
);

appTest(
  "POST /api/users/access-codes refuses codes outside the alphabet, duplicates and bad roles",
  async (t) => {
    const admin = await account(t, "admin", { language: "en" });
    const post = (json: unknown) =>
      call(t, "POST", "/api/users/access-codes", { token: admin.token, json });
    for (const code of ["ABCD2340", "ABCD1234", "OOOO2345", "IIII2345", "ABC2345", "ABCD23456"]) {
      const res = await post({ code, role: "user" });
      assert.equal(res.status, 400, code);
      const body = await res.json();
      assert.equal(body.message, "Failed to create access code");
      assert.deepEqual(body.errors, { code: "This access code is not valid" }, code);
    }
    assert.deepEqual((await (await post({ role: "user" })).json()).errors, {
      code: "Access code is required",
    });
    assert.deepEqual((await (await post({ code: "ABCD2345", role: "admin" })).json()).errors, {
      role: "Choose a valid role",
    });
    assert.equal((await post({ code: "ABCD2345", role: "user" })).status, 201);
    const dup = await post({ code: "abcd2345", role: "customer" });
    assert.equal(dup.status, 400);
    assert.deepEqual((await dup.json()).errors, {
      code: "This code already exists, generate a new one",
    });
    const bad = await post({ code: "ABCD2346", role: "user", assignments: { units: ["x"] } });
    assert.equal(bad.status, 400);
    const list = await (await call(t, "GET", "/api/users/access-codes", { token: admin.token }))
      .json();
    assert.deepEqual(list.codes.map((c: { code: string }) => c.code), ["ABCD2345"]);
  },
);

adminTest("GET /api/users/access-codes lists codes newest first", async ({ t, admin }) => {
  for (const code of ["FRST2345", "SECD2345", "THRD2345"]) {
    await call(t, "POST", "/api/users/access-codes", {
      token: admin.token,
      json: { code, role: "user" },
    });
  }
  const res = await call(t, "GET", "/api/users/access-codes", { token: admin.token });
  assert.equal(res.status, 200);
  const { codes } = await res.json();
  assert.deepEqual(codes.map((c: { code: string }) => c.code), [
    "THRD2345",
    "SECD2345",
    "FRST2345",
  ]);
});

adminTest(
  "DELETE /api/users/access-codes/{id}: unused goes, used stays until its account is deleted",
  async ({ t, admin }) => {
    const create = async (code: string) => {
      const res = await call(t, "POST", "/api/users/access-codes", {
        token: admin.token,
        json: { code, role: "user" },
      });
      return (await res.json()).id as number;
    };
    const unused = await create("UNSD2345");
    const del = await call(t, "DELETE", `/api/users/access-codes/${unused}`, {
      token: admin.token,
    });
    assert.equal(del.status, 200);
    assert.deepEqual(await del.json(), { message: "Access code deleted successfully" });
    assert.equal(await getAccessCode(t.deps.kv, unused), null);
    assert.equal(
      (await call(t, "DELETE", `/api/users/access-codes/${unused}`, { token: admin.token })).status,
      404,
    );

    const used = await create("USED2345");
    const reg = await call(t, "POST", "/auth/register", {
      json: {
        email: "holder@test.mx",
        password: "secret1",
        full_name: "Code Holder",
        phone: "+525512345678",
        accessCode: "USED2345",
      },
    });
    assert.equal(reg.status, 201);
    const holder = (await reg.json()).user;
    const refused = await call(t, "DELETE", `/api/users/access-codes/${used}`, {
      token: admin.token,
    });
    assert.equal(refused.status, 400);
    assert.equal(
      (await refused.json()).message,
      "A used access code cannot be deleted while its account exists",
    );
    assert.notEqual(await getAccessCode(t.deps.kv, used), null);

    const gone = await call(t, "DELETE", `/api/users/${holder.id}`, { token: admin.token });
    assert.equal(gone.status, 200);
    const after = await getAccessCode(t.deps.kv, used);
    assert.equal(after?.is_used, true);
    assert.equal(after?.used_by_id, null);
    const now = await call(t, "DELETE", `/api/users/access-codes/${used}`, { token: admin.token });
    assert.equal(now.status, 200);
    assert.deepEqual(await now.json(), { message: "Access code deleted successfully" });
    assert.equal(await getAccessCode(t.deps.kv, used), null);
  },
);

appTest("GET /api/users/profile answers the caller's own account, for every role", async (t) => {
  for (const role of ["admin", "customer", "user"] as const) {
    const who = await account(t, role);
    const res = await call(t, "GET", "/api/users/profile", { token: who.token });
    assert.equal(res.status, 200, role);
    const body = await res.json();
    assert.equal(body.id, who.user.id);
    assert.equal(body.email, who.user.email);
    assert.equal(body.password_hash, undefined);
  }
});

appTest("PUT /api/users/profile updates the profile and applies the language", async (t) => {
  const me = await account(t, "user", { language: "en" });
  const res = await call(t, "PUT", "/api/users/profile", {
    token: me.token,
    json: {
      email: " Me.New@Test.MX",
      full_name: "  New Name ",
      phone: "+52 1",
      language: "de",
      current_password: me.password,
    },
  });
  assert.equal(res.status, 200);
  const user = await res.json();
  assert.equal(user.email, "me.new@test.mx");
  assert.equal(user.full_name, "New Name");
  assert.equal(user.phone, "+52 1");
  assert.equal(user.language, "de");
  assert.equal(user.role, "user");
  // The next answer comes in German.
  const bad = await call(t, "PUT", "/api/users/profile", {
    token: me.token,
    json: { email: "broken", full_name: "New Name", language: "de" },
  });
  assert.equal(bad.status, 400);
  assert.deepEqual((await bad.json()).errors, {
    email: "Bitte geben Sie eine gültige E-Mail-Adresse ein",
  });
  const page = await call(t, "GET", "/user/settings", { cookie: `token=${me.token}` });
  assert.match(await page.text(), /<html[^>]*lang="de"/);
  // The profile cannot change the role.
  const role = await call(t, "PUT", "/api/users/profile", {
    token: me.token,
    json: { email: "me.new@test.mx", full_name: "New Name", language: "en", role: "admin" },
  });
  assert.equal(role.status, 200);
  assert.equal((await getUser(t.deps.kv, me.user.id))?.role, "user");
});

appTest(
  "PUT /api/users/profile changes the password only with the right current password",
  async (t) => {
    const me = await account(t, "customer", { password: "oldpass1" });
    const base = { email: me.user.email, full_name: "Me", phone: "", language: "en" };
    const put = (json: unknown) => call(t, "PUT", "/api/users/profile", { token: me.token, json });

    const refusals: [Record<string, string>, Record<string, string>][] = [
      [{}, { current_password: "Enter your current password to set a new one" }],
      [{ current_password: "not-mine" }, {
        current_password: "The current password is not correct",
      }],
      [
        { current_password: "oldpass1", confirm_password: "newpass2" },
        { confirm_password: "Passwords do not match" },
      ],
    ];
    for (const [change, errors] of refusals) {
      const res = await put({
        ...base,
        new_password: "newpass1",
        confirm_password: "newpass1",
        ...change,
      });
      assert.equal(res.status, 400, JSON.stringify(change));
      assert.deepEqual((await res.json()).errors, errors);
    }
    assert.equal(await signInStatus(t, me.user.email, "oldpass1"), 200, "still the old password");

    const ok = await put({
      ...base,
      current_password: "oldpass1",
      new_password: "newpass1",
      confirm_password: "newpass1",
    });
    assert.equal(ok.status, 200);
    assert.equal(await signInStatus(t, me.user.email, "newpass1"), 200);
    assert.equal(await signInStatus(t, me.user.email, "oldpass1"), 401);
  },
);

appTest("PUT /api/users/profile refuses another account's e-mail", async (t) => {
  const me = await account(t, "user");
  const other = await account(t, "user");
  const res = await putProfile(t, me, { email: other.user.email });
  assert.equal(res.status, 400);
  assert.deepEqual((await res.json()).errors, { email: "This email is already registered" });
  assert.equal((await getUser(t.deps.kv, me.user.id))?.email, me.user.email);
});

adminTest(
  "/api/users ids that are not positive whole numbers answer 404, never 500",
  async ({ t, admin }) => {
    const ids = ["abc", "1.5", "-1", "0", "1e3", "99999999999999999999", "%20", "999999"];
    for (const id of ids) {
      const body = { email: "x@test.mx", full_name: "X", role: "user" };
      for (
        const [method, path] of [
          ["GET", `/api/users/${id}`],
          ["PUT", `/api/users/${id}`],
          ["DELETE", `/api/users/${id}`],
          ["POST", `/api/users/${id}/toggle`],
          ["DELETE", `/api/users/access-codes/${id}`],
        ]
      ) {
        const res = await call(t, method, path, {
          token: admin.token,
          json: method === "PUT" ? body : undefined,
        });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(typeof (await res.json()).message, "string");
      }
    }
  },
);
