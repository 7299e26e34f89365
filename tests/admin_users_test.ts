/** The admin users management screens: lists, account form, toggle, delete, access codes. */
import assert from "node:assert/strict";
import {
  account,
  call,
  seedAccessCode,
  type TestApp,
  testApp,
  withAdminApp as withApp,
} from "./_helpers.ts";
import { findUserByEmail, getUser, listUsers } from "../db/users.ts";
import { getAccessCode, listAccessCodes, registerWithCode } from "../db/access_codes.ts";

async function page(t: TestApp, path: string, token: string) {
  const res = await call(t, "GET", path, { token });
  assert.equal(res.status, 200, `GET ${path}`);
  return await res.text();
}

/** Posts `form` to `path` as the admin `token`; asserts a 303 and answers where it leads. */
async function posted(t: TestApp, token: string, path: string, form: Record<string, string>) {
  const res = await call(t, "POST", path, { token, form });
  assert.equal(res.status, 303);
  return res.headers.get("location")!;
}

/** The value of the read-only access code input of the create page. */
function codeOf(html: string): string {
  const m = /id="code"[^>]*value="([A-Z0-9]{8})"|value="([A-Z0-9]{8})"[^>]*id="code"/.exec(html);
  assert.ok(m, "the page shows a code");
  return m[1] ?? m[2];
}

/** The value of the checked role radio button. */
function checkedRole(html: string): string | null {
  for (const tag of html.match(/<input type="radio" name="role"[^>]*>/g) ?? []) {
    if (tag.includes('checked=""')) return /value="(\w+)"/.exec(tag)?.[1] ?? null;
  }
  return null;
}

Deno.test("GET /admin/users lists each tab's accounts and filters by search", async () => {
  await withApp(async (t, admin) => {
    await account(t, "user", { full_name: "Tenant Ana", email: "ana@test.mx" });
    await account(t, "user", { full_name: "Tenant Beto", email: "beto@test.mx" });
    await account(t, "customer", {
      email: "cliente@test.mx",
      full_name: "Cliente Carla",
      company_name: "Solar SA",
    });

    const tenants = await page(t, "/admin/users", admin);
    assert.match(tenants, /Tenant Ana/);
    assert.match(tenants, /Tenant Beto/);
    assert.doesNotMatch(tenants, /Cliente Carla/);
    assert.match(tenants, /<a class="tab" href="\/admin\/users\?tab=tenants" aria-current="page"/);
    // An admin creates a tenant directly too (with their unit and move-in date).
    assert.match(tenants, /href="\/admin\/users\/accounts-form\/user" data-testid="create-button"/);
    for (const label of ["Total Users", "Customers", "Tenants", "Unused Codes"]) {
      assert.match(tenants, new RegExp(`stat-label">${label}<`));
    }

    const customers = await page(t, "/admin/users?tab=customers", admin);
    assert.match(customers, /Cliente Carla/);
    assert.match(customers, /Solar SA/);
    assert.doesNotMatch(customers, /Tenant Ana/);
    assert.match(
      customers,
      /href="\/admin\/users\/accounts-form\/customer"[^>]*>.*Create Customer/,
    );

    const admins = await page(t, "/admin/users?tab=admins", admin);
    assert.match(admins, /href="\/admin\/users\/accounts-form\/admin"[^>]*>.*Create Admin/);
    assert.doesNotMatch(admins, /Tenant Ana/);

    const found = await page(t, "/admin/users?tab=tenants&q=beto", admin);
    assert.match(found, /Tenant Beto/);
    assert.doesNotMatch(found, /Tenant Ana/);
    assert.match(found, /name="q" value="beto"/);

    const none = await page(t, "/admin/users?tab=tenants&q=nobody", admin);
    assert.match(none, /data-testid="empty-state"/);
    assert.match(none, /Nothing matches “nobody”/);
  });
});

Deno.test("the Tenants tab explains that tenants appear after registering with a code", async () => {
  await withApp(async (t, admin) => {
    const html = await page(t, "/admin/users?tab=tenants", admin);
    assert.match(html, /No tenants yet/);
    assert.match(html, /after they register with an access code/);
    const codes = await page(t, "/admin/users?tab=access-codes", admin);
    assert.match(codes, /No access codes yet/);
    assert.match(codes, /href="\/admin\/access-codes\/create"/);
  });
});

Deno.test("GET /admin/users sends tenants and customers away and anonymous to /login", async () => {
  await withApp(async (t) => {
    for (const role of ["user", "customer"] as const) {
      const { token } = await account(t, role);
      const res = await call(t, "GET", "/admin/users?tab=customers", { token });
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "/");
      const post = await call(t, "POST", "/admin/users/accounts-form/admin", {
        token,
        form: { email: "evil@test.mx", full_name: "Evil", role: "admin", password: "secret123" },
      });
      assert.equal(post.status, 302);
      assert.equal(await findUserByEmail(t.deps.kv, "evil@test.mx"), null);
    }
    const anon = await call(t, "GET", "/admin/users");
    assert.equal(anon.status, 302);
    assert.equal(anon.headers.get("location"), "/login?next=%2Fadmin%2Fusers");
  });
});

Deno.test("POST /admin/users/accounts-form/customer creates the customer and goes to its tab", async () => {
  await withApp(async (t, admin) => {
    const location = await posted(t, admin, "/admin/users/accounts-form/customer", {
      email: "  Nuevo@Cliente.MX ",
      full_name: "Nuevo Cliente",
      phone: "5512345678",
      role: "customer",
      is_active: "on",
      company_name: "Energía SA",
      tax_id: "ENE010101AAA",
      password: "secret123",
    });
    assert.equal(location, "/admin/users?tab=customers&done=created");
    const stored = await findUserByEmail(t.deps.kv, "nuevo@cliente.mx");
    assert.ok(stored);
    assert.equal(stored.role, "customer");
    assert.equal(stored.is_active, true);
    assert.equal(stored.company_name, "Energía SA");
    assert.equal(stored.tax_id, "ENE010101AAA");
    const list = await page(t, location, admin);
    assert.match(list, /Account created successfully/);
    assert.match(list, /Nuevo Cliente/);
  });
});

Deno.test("the account form keeps an unchecked Active box as an inactive account", async () => {
  await withApp(async (t, admin) => {
    const location = await posted(t, admin, "/admin/users/accounts-form/admin", {
      email: "off@test.mx",
      full_name: "Off Admin",
      role: "admin",
      password: "secret123",
    });
    assert.equal(location, "/admin/users?tab=admins&done=created");
    assert.equal((await findUserByEmail(t.deps.kv, "off@test.mx"))?.is_active, false);
  });
});

Deno.test("POST of the account form with bad input answers 400 with inline messages and writes nothing", async () => {
  await withApp(async (t, admin) => {
    const before = (await listUsers(t.deps.kv)).length;
    const empty = await call(t, "POST", "/admin/users/accounts-form/customer", {
      token: admin,
      form: { email: "", full_name: " ", role: "customer", password: "", phone: "555" },
    });
    assert.equal(empty.status, 400);
    const html = await empty.text();
    assert.match(html, /Failed to create account/);
    assert.match(html, /<p class="field-error" id="email-error">Email is required<\/p>/);
    assert.match(html, /<p class="field-error" id="full_name-error">Full name is required<\/p>/);
    assert.match(html, /<p class="field-error" id="password-error">Password is required<\/p>/);
    assert.match(html, /value="555"/, "typed values are kept");

    const bad = await call(t, "POST", "/admin/users/accounts-form/customer", {
      token: admin,
      form: { email: "not-an-email", full_name: "Ok Name", role: "customer", password: "12345" },
    });
    assert.equal(bad.status, 400);
    const badHtml = await bad.text();
    assert.match(badHtml, /Please enter a valid email/);
    assert.match(badHtml, /Password must be at least 6 characters/);
    assert.equal((await listUsers(t.deps.kv)).length, before);
  });
});

Deno.test("editing a customer into a tenant clears its station assignments", async () => {
  await withApp(async (t, admin) => {
    const { user: customer } = await account(t, "customer", {
      email: "owner@test.mx",
      full_name: "Owner One",
      company_name: "Owner SA",
      assignments: { stations: [3, 7], units: [] },
    });
    const form = await page(t, `/admin/users/accounts-form/customer/${customer.id}`, admin);
    assert.match(form, /Edit Customer/);
    assert.match(form, /value="owner@test.mx"/);
    assert.match(form, /Leave blank to keep the current password/);

    const location = await posted(t, admin, `/admin/users/accounts-form/customer/${customer.id}`, {
      email: "owner@test.mx",
      full_name: "Owner One",
      role: "user",
      is_active: "on",
      company_name: "Owner SA",
      password: "",
    });
    assert.equal(location, "/admin/users?tab=tenants&done=updated");
    const after = await getUser(t.deps.kv, customer.id);
    assert.equal(after?.role, "user");
    assert.deepEqual(after?.assignments, { stations: [], units: [] });
    assert.equal(after?.company_name, "", "company is kept for customers only");
    assert.equal(after?.password_hash, customer.password_hash, "blank password keeps it");
  });
});

Deno.test("a failed edit keeps the role change warning and the form-level error", async () => {
  await withApp(async (t, admin) => {
    const { user } = await account(t, "user");
    const res = await call(t, "POST", `/admin/users/accounts-form/user/${user.id}`, {
      token: admin,
      form: { email: "", full_name: "Someone", role: "customer", password: "" },
    });
    assert.equal(res.status, 400);
    const html = await res.text();
    assert.match(html, /Failed to update account/);
    assert.match(html, /Changing this tenant to a customer removes their sensor assignments/);
    assert.equal((await getUser(t.deps.kv, user.id))?.role, "user");
  });
});

Deno.test("POST /admin/users/{id}/toggle flips is_active, but not one's own", async () => {
  await withApp(async (t, admin) => {
    const { user } = await account(t, "customer", { full_name: "Carla Dueña" });
    // Deactivating asks first (the page without JavaScript); nothing changes before.
    const ask = await call(t, "POST", `/admin/users/${user.id}/toggle`, {
      token: admin,
      form: { tab: "customers" },
    });
    assert.equal(ask.status, 200);
    const asked = await ask.text();
    assert.match(asked, /Are you sure you want to deactivate Carla Dueña\?/);
    assert.match(asked, /name="confirm" value="yes"/);
    assert.match(asked, /<button type="submit" class="btn btn-danger">Deactivate<\/button>/);
    assert.equal((await getUser(t.deps.kv, user.id))?.is_active, true);
    const off = await call(t, "POST", `/admin/users/${user.id}/toggle`, {
      token: admin,
      form: { tab: "customers", confirm: "yes" },
    });
    assert.equal(off.status, 303);
    assert.equal(off.headers.get("location"), "/admin/users?tab=customers&done=deactivated");
    assert.equal((await getUser(t.deps.kv, user.id))?.is_active, false);
    const listed = await page(t, "/admin/users?tab=customers", admin);
    assert.match(listed, /badge badge-grey">Inactive</);
    assert.match(listed, />Activate</);

    const on = await call(t, "POST", `/admin/users/${user.id}/toggle`, { token: admin });
    assert.equal(on.headers.get("location"), "/admin/users?tab=customers&done=activated");
    assert.equal((await getUser(t.deps.kv, user.id))?.is_active, true);

    const me = (await listUsers(t.deps.kv, "admin"))[0];
    const self = await call(t, "POST", `/admin/users/${me.id}/toggle`, {
      token: admin,
      form: { tab: "admins", confirm: "yes" },
    });
    assert.equal(self.status, 303);
    const shown = await page(t, self.headers.get("location")!, admin);
    assert.match(shown, /Failed to toggle user status: You cannot deactivate your own account/);
    assert.equal((await getUser(t.deps.kv, me.id))?.is_active, true);
  });
});

Deno.test("an admin's own row offers no Deactivate or Delete; the others' rows do", async () => {
  await withApp(async (t, admin) => {
    await account(t, "admin", { full_name: "Otra Admin" });
    const me = (await listUsers(t.deps.kv, "admin"))[0];
    const html = await page(t, "/admin/users?tab=admins", admin);
    const rowOf = (id: number) =>
      new RegExp(`<tr[^>]*data-user-id="${id}"[\\s\\S]*?</tr>`).exec(html)![0];
    const other = (await listUsers(t.deps.kv, "admin")).find((u) => u.id !== me.id)!;
    assert.doesNotMatch(rowOf(me.id), /Deactivate|Delete|\/toggle|\/delete/);
    assert.match(rowOf(me.id), /Edit/);
    assert.match(rowOf(other.id), /Deactivate/);
    assert.match(rowOf(other.id), /Delete/);
  });
});

Deno.test("deleting an account asks for confirmation first, then deletes it", async () => {
  await withApp(async (t, admin) => {
    const { user } = await account(t, "user", { full_name: "Doomed Tenant" });
    const ask = await call(t, "POST", `/admin/users/${user.id}/delete`, {
      token: admin,
      form: { tab: "tenants" },
    });
    assert.equal(ask.status, 200);
    const html = await ask.text();
    assert.match(html, /Are you sure you want to delete Doomed Tenant\?/);
    assert.match(html, /name="confirm" value="yes"/);
    assert.ok(await getUser(t.deps.kv, user.id), "nothing deleted before confirming");

    const done = await call(t, "POST", `/admin/users/${user.id}/delete`, {
      token: admin,
      form: { tab: "tenants", confirm: "yes" },
    });
    assert.equal(done.status, 303);
    assert.equal(done.headers.get("location"), "/admin/users?tab=tenants&done=deleted");
    assert.equal(await getUser(t.deps.kv, user.id), null);
    assert.match(await page(t, done.headers.get("location")!, admin), /Account deleted/);
  });
});

Deno.test("an admin cannot delete themselves: 'Failed to delete: {message}'", async () => {
  await withApp(async (t, admin) => {
    const me = (await listUsers(t.deps.kv, "admin"))[0];
    const html = await page(
      t,
      await posted(t, admin, `/admin/users/${me.id}/delete`, { tab: "admins", confirm: "yes" }),
      admin,
    );
    assert.match(html, /Failed to delete: You cannot delete your own account/);
    assert.ok(await getUser(t.deps.kv, me.id));
    const none = await call(t, "POST", "/admin/users/abc/delete", { token: admin, form: {} });
    const noneHtml = await page(t, none.headers.get("location")!, admin);
    assert.match(noneHtml, /Failed to delete: No item selected for deletion/);
  });
});

Deno.test("cookie sessions can post the forms from the portal's own pages", async () => {
  await withApp(async (t, admin) => {
    const { user } = await account(t, "user");
    const cookie = `token=${admin}`;
    const res = await call(t, "POST", `/admin/users/${user.id}/toggle`, {
      cookie,
      form: { confirm: "yes" },
    });
    assert.equal(res.status, 303);
    assert.equal((await getUser(t.deps.kv, user.id))?.is_active, false);
    const cross = await call(t, "POST", `/admin/users/${user.id}/toggle`, {
      cookie,
      origin: "https://evil.example",
    });
    assert.equal(cross.status, 403);
    assert.equal((await getUser(t.deps.kv, user.id))?.is_active, false);
  });
});

Deno.test("Create Access Code posts a code that then shows under the Access Codes tab", async () => {
  await withApp(async (t, admin) => {
    const form = await page(t, "/admin/access-codes/create", admin);
    const code = codeOf(form);
    assert.match(form, /No units with a sensor yet/);
    assert.match(form, /No stations yet/);
    assert.equal(checkedRole(form), "user", "Tenant by default");
    const location = await posted(t, admin, "/admin/access-codes/create", {
      code,
      role: "user",
      notes: "Depto 4B",
    });
    assert.equal(location, "/admin/users?tab=access-codes&done=code_created");
    const stored = (await listAccessCodes(t.deps.kv)).find((c) => c.code === code);
    assert.ok(stored);
    assert.equal(stored.role, "user");
    assert.equal(stored.notes, "Depto 4B");
    const list = await page(t, location, admin);
    assert.match(list, new RegExp(`<code class="code">${code}</code>`));
    assert.match(list, /Depto 4B/);
    assert.match(list, /Available/);
    assert.match(list, /Access code created successfully/);
    assert.match(list, /stat-label">Unused Codes<\/div><div class="stat-value">1</);
  });
});

Deno.test("Create Access Code refuses a bad or taken code with 'Failed to create access code'", async () => {
  await withApp(async (t, admin) => {
    const bad = await call(t, "POST", "/admin/access-codes/create", {
      token: admin,
      form: { code: "", role: "user", notes: "" },
    });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /Failed to create access code/);
    await seedAccessCode(t.deps.kv, "ABCD2345", "user");
    const taken = await call(t, "POST", "/admin/access-codes/create", {
      token: admin,
      form: { code: "ABCD2345", role: "customer", notes: "" },
    });
    assert.equal(taken.status, 400);
    assert.match(await taken.text(), /This code already exists/);
    assert.equal((await listAccessCodes(t.deps.kv)).length, 1);
  });
});

Deno.test("Generate New re-renders with a different code and keeps the other fields", async () => {
  await withApp(async (t, admin) => {
    const res = await call(t, "POST", "/admin/access-codes/create", {
      token: admin,
      form: { code: "ABCD2345", role: "customer", notes: "Para la torre A", action: "regenerate" },
    });
    assert.equal(res.status, 200);
    const html = await res.text();
    const code = codeOf(html);
    assert.notEqual(code, "ABCD2345");
    assert.equal(checkedRole(html), "customer");
    assert.match(html, /Para la torre A/);
    assert.equal((await listAccessCodes(t.deps.kv)).length, 0, "nothing created");
  });
});

Deno.test("a used code with a user id offers no delete and its delete post is refused", async () => {
  await withApp(async (t, admin) => {
    const used = await seedAccessCode(t.deps.kv, "USED2345", "user");
    const free = await seedAccessCode(t.deps.kv, "FREE2345", "customer");
    const reg = await registerWithCode(t.deps.kv, "USED2345", {
      email: "inq@test.mx",
      full_name: "Inquilina",
      password_hash: "x",
    }, Date.now());
    assert.equal(typeof reg, "object");

    const list = await page(t, "/admin/users?tab=access-codes", admin);
    assert.match(list, /Used/);
    assert.match(list, /by inq@test.mx/);
    assert.doesNotMatch(list, new RegExp(`/admin/access-codes/${used.id}/delete`));
    assert.match(list, new RegExp(`/admin/access-codes/${free.id}/delete`));

    const shown = await page(
      t,
      await posted(t, admin, `/admin/access-codes/${used.id}/delete`, { confirm: "yes" }),
      admin,
    );
    assert.match(shown, /Failed to delete: A used access code cannot be deleted/);
    assert.ok(await getAccessCode(t.deps.kv, used.id), "the used code stays");
  });
});

Deno.test("deleting an access code asks for confirmation first, then deletes it", async () => {
  await withApp(async (t, admin) => {
    const code = await seedAccessCode(t.deps.kv, "GONE2345", "user");
    const ask = await call(t, "POST", `/admin/access-codes/${code.id}/delete`, { token: admin });
    assert.equal(ask.status, 200);
    assert.match(await ask.text(), /delete the access code GONE2345\?/);
    assert.ok(await getAccessCode(t.deps.kv, code.id));
    const res = await call(t, "POST", `/admin/access-codes/${code.id}/delete`, {
      token: admin,
      form: { confirm: "yes", tab: "access-codes" },
    });
    assert.equal(res.headers.get("location"), "/admin/users?tab=access-codes&done=code_deleted");
    assert.equal(await getAccessCode(t.deps.kv, code.id), null);
  });
});

Deno.test("pages with islands include their scripts and props", async () => {
  await withApp(async (t, admin) => {
    await seedAccessCode(t.deps.kv, "ISLA2345", "user");
    const islands = t.deps.assets.manifest.islands;
    const codes = await page(t, "/admin/users?tab=access-codes", admin);
    for (const name of ["CopyButton", "ConfirmSubmit"]) {
      assert.ok(codes.includes(`src="/static/build/${islands[name].file}"`), name);
      assert.match(codes, new RegExp(`data-island="${name}"`));
    }
    const create = await page(t, "/admin/access-codes/create", admin);
    assert.ok(create.includes(`src="/static/build/${islands.AccessCodeForm.file}"`));
    const form = await page(t, "/admin/users/accounts-form/customer", admin);
    assert.ok(form.includes(`src="/static/build/${islands.RoleSelect.file}"`));
    assert.match(form, /name="company_name"/, "customer fields are server-rendered");
    const tenants = await page(t, "/admin/users?tab=tenants", admin);
    assert.ok(!tenants.includes(islands.ConfirmSubmit.file), "no rows, no delete island");
  });
});

Deno.test("unknown account form types and ids redirect to /admin/users", async () => {
  await withApp(async (t, admin) => {
    for (
      const path of [
        "/admin/users/accounts-form/bogus",
        "/admin/users/accounts-form/customer/999",
        "/admin/users/accounts-form/user/abc",
      ]
    ) {
      const res = await call(t, "GET", path, { token: admin });
      assert.equal(res.status, 302, path);
      assert.equal(res.headers.get("location"), "/admin/users", path);
    }
    const post = await call(t, "POST", "/admin/users/accounts-form/bogus", {
      token: admin,
      form: { email: "x@test.mx", full_name: "X", role: "admin", password: "secret123" },
    });
    assert.equal(post.headers.get("location"), "/admin/users");
    assert.equal(await findUserByEmail(t.deps.kv, "x@test.mx"), null);
  });
});

Deno.test("the users screens render in Spanish for a Spanish-speaking admin", async () => {
  const t = await testApp();
  try {
    const { token } = await account(t, "admin", { language: "es" });
    await account(t, "customer", { full_name: "Cliente Uno" });
    const list = await page(t, "/admin/users?tab=customers", token);
    assert.match(list, /<html lang="es"/);
    for (
      const text of [
        "Gestión de usuarios",
        "Usuarios totales",
        "Códigos sin usar",
        "Inquilinos",
        "Códigos de acceso",
        "Crear cliente",
        "Activo",
        "Desactivar",
        "Eliminar",
      ]
    ) assert.ok(list.includes(text), text);
    const res = await call(t, "POST", "/admin/users/accounts-form/customer", {
      token,
      form: { email: "", full_name: "", role: "customer", password: "" },
    });
    const html = await res.text();
    assert.match(html, /No se pudo crear la cuenta/);
    assert.match(html, /El correo electrónico es obligatorio/);
    assert.match(html, /Razón social/);
    const codeForm = await page(t, "/admin/access-codes/create", token);
    assert.match(codeForm, /Generar nuevo/);
    assert.match(codeForm, /Aún no hay unidades con sensor/);
    assert.doesNotMatch(list + html + codeForm, /users\.[a-z_]+\.[a-z_]+/, "no raw keys");
  } finally {
    t.close();
  }
});
