/**
 * The authorization matrix of DESIGN.md: every route of the app, walked by every role
 * (anonymous, admin, customer, tenant, a second tenant). Adding a route means adding one
 * row to ROUTES; the second test fails until that row exists.
 */
import assert from "node:assert/strict";
import {
  account,
  call,
  type CallOptions,
  seedAccessCode,
  sensorBody,
  stationBody,
  type TestApp,
  testApp,
  unitIds,
} from "./_helpers.ts";
import { createUser, getUser, type StoredUser } from "../db/users.ts";
import { startSession } from "../services/sessions.ts";
import { createNotification } from "../db/notifications.ts";
import { updateDevice } from "../db/devices.ts";
import { hashPassword } from "../services/platform/passwords.ts";
import type { Role } from "../core/roles.ts";
import { clearPendingNotices, writeStationBills } from "../db/bills.ts";
import { billPeriod, customerBillDraft, fresh, unitBillDraft } from "./_bills.ts";

/** Who asks. */
type Actor = "anonymous" | "admin" | "customer" | "tenant" | "tenant2";

/**
 * The order the actors walk each row in: the owners of a record come last, so that an
 * earlier actor who could wrongly change it would make the owner's expectation fail.
 */
const ACTORS: Actor[] = ["anonymous", "customer", "tenant2", "admin", "tenant"];

const ROLE_OF: Record<Exclude<Actor, "anonymous">, Role> = {
  admin: "admin",
  customer: "customer",
  tenant: "user",
  tenant2: "user",
};

/** The records the rows point at. */
interface Fixture {
  who: Record<Exclude<Actor, "anonymous">, { user: StoredUser; token: string }>;
  /** Accounts that exist only to be changed or deleted by one row. */
  victims: Record<
    "apiUpdate" | "apiDelete" | "apiToggle" | "pageToggle" | "pageDelete" | "pageUpdate",
    StoredUser
  >;
  codes: { apiDelete: number; pageDelete: number };
  /** The first tenant's notifications, resolved by the API row and by the page row. */
  notes: { api: number; page: number };
  /** Devices: see {@link deviceFixture}. */
  dev: DeviceFixture;
  /** Zones: `api` and `page` are read and updated, the others deleted by one row each. */
  zones: { api: number; apiDelete: number; page: number; pageDelete: number; pricing: number };
  /** Draft bills of `dev.station` (the tenant's unit_1), each deleted by one row. */
  bills: { unit: number[]; vacant: number[]; customer: number[] };
  /** A monthly and a bimonthly bill of the spare station, recalculated by the PUT rows. */
  recalc: number[];
  css: string;
}

/**
 * `station` belongs to the customer and holds the first tenant's `sensor` (unit_1); `spare`
 * (no customer) holds `spareSensor` (unit_1) and `doomedSensor` (unit_2) and has unit_3
 * free; `empty` has no sensors.
 */
interface DeviceFixture {
  station: number;
  sensor: number;
  spare: number;
  spareSensor: number;
  doomedSensor: number;
  empty: number;
}

/** A station body for the device rows. */
function matrixStation(serial: string) {
  return stationBody({
    name: `Matrix ${serial}`,
    serial,
    stationId: `st_${serial}`,
    mqtt: { username: `mq-${serial}`, password: "mq-pw-0123456789" },
    units: unitIds(3),
  });
}

/** A sensor body for the device rows. */
function matrixSensor(serial: string, unit: string, tenant: number | null = null) {
  return sensorBody({
    name: `Meter ${serial}`,
    serial,
    unit,
    tenant,
    mqtt: { username: `mq-${serial}`, password: "mq-pw-0123456789" },
  });
}

/** The station page form for the matrix's station pages (three units on one SSR). */
function pageStationForm(serial: string, password: string) {
  return {
    name: `Page ${serial}`,
    serial_number: serial,
    station_id: `st_${serial}`,
    city: "Monterrey",
    state: "NL",
    country: "MX",
    mqtt_username: `mq-${serial}`,
    mqtt_password: password,
    ssr_id: "ssr_1",
    ssr_name: "SSR 1",
    ssr_type: "normal",
    ssr_gpio: "0",
    unit_id: ["unit_1", "unit_2", "unit_3"],
    unit_name: ["Unit 1", "Unit 2", "Unit 3"],
    unit_ssr: ["ssr_1", "ssr_1", "ssr_1"],
  };
}

/** The sensor page form for the matrix's sensor pages. */
function pageSensorForm(serial: string, unit: string, tenant: number | null) {
  return {
    name: `Meter ${serial}`,
    serial_number: serial,
    unit_id: unit,
    tenant_id: tenant === null ? "" : String(tenant),
    ip_address: "10.0.0.9",
    mqtt_username: `mq-${serial}`,
    mqtt_password: "mq-pw-0123456789",
  };
}

/** A basic zone body for the zone rows. */
function zoneJson(name: string) {
  return { name, price_low: 1.5, base_tariff: 40, tax_percentage: 16 };
}

/** What a request must answer; `location: "login"` is `/login?next=<the path>`. */
interface Expect {
  status: number;
  location?: string | RegExp | "login";
}

/** One route of the app. */
interface Row {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The route as the app registers it (null for paths no route matches). */
  route: string | null;
  /** The concrete path asked for; defaults to `route`. */
  path?: (f: Fixture) => string;
  /** The body sent by `actor`. */
  body?: (f: Fixture, actor: Actor) => Pick<CallOptions, "json" | "form">;
  expect: Record<Actor, Expect>;
  /** Further checks of a successful answer. */
  check?: (res: Response, actor: Actor, f: Fixture) => Promise<void>;
}

const ALL: Actor[] = ["anonymous", "admin", "customer", "tenant", "tenant2"];

function each(fn: (a: Actor) => Expect): Record<Actor, Expect> {
  return Object.fromEntries(ALL.map((a) => [a, fn(a)])) as Record<Actor, Expect>;
}

/** The same answer for everyone (public routes). */
const everyone = (status: number, location?: string | RegExp) => each(() => ({ status, location }));

/** An API route for `roles`: 401 anonymous, 403 other roles. */
const api = (roles: Role[], status: number) =>
  each((a) =>
    a === "anonymous" ? { status: 401 } : roles.includes(ROLE_OF[a]) ? { status } : { status: 403 }
  );

/** An API route for anyone signed in. */
const signedInApi = (status: number) => api(["admin", "customer", "user"], status);

/** An API route of the matrix's station: 200 for the signed-in, 404 for the other tenant. */
const ofStation200 = () => ({ ...signedInApi(200), tenant2: { status: 404 } });

/** A page of one role's area: anonymous to /login?next=, other roles to /. */
const page = (role: Role | "any", status = 200, location?: string | RegExp) =>
  each((a) =>
    a === "anonymous"
      ? { status: 302, location: "login" }
      : role === "any" || ROLE_OF[a] === role
      ? { status, location }
      : { status: 302, location: "/" }
  );

/** Pages for anonymous visitors: signed-in users go to their home. */
const guestPage = each((a) =>
  a === "anonymous" ? { status: 200 } : { status: 302, location: home(a) }
);

function home(a: Actor): string {
  return a === "admin" ? "/admin" : a === "customer" ? "/customer" : "/user";
}

/** A profile form or body for `actor`'s own account. */
function ownProfile(f: Fixture, actor: Actor) {
  const me = actor === "anonymous" ? null : f.who[actor].user;
  return {
    email: me?.email ?? "nobody@test.mx",
    full_name: me?.full_name ?? "Nobody",
    phone: "",
    language: "en",
  };
}

/** The home and settings pages of `role`'s `area`, and its settings form with one's own profile. */
const areaHome = (role: Role, area: string): Row[] => [
  { method: "GET", route: area, expect: page(role) },
  { method: "GET", route: `${area}/settings`, expect: page(role) },
  {
    method: "POST",
    route: `${area}/settings`,
    body: (f, a) => ({ form: ownProfile(f, a) }),
    expect: page(role, 303, `${area}/settings?saved=1`),
  },
  {
    method: "POST",
    route: `${area}/settings/messages`,
    body: () => ({ form: { kind: "meter_offline" } }),
    expect: page(role, 303, `${area}/settings?messages_saved=1#messages`),
  },
  { method: "GET", route: `${area}/settings/second-factor`, expect: page(role) },
  ...["confirm", "disable"].map((step): Row => ({
    method: "POST",
    route: `${area}/settings/second-factor/${step}`,
    body: () => ({ form: { code: "000000" } }),
    expect: page(role, 400),
  })),
  // Fiscal data (issue 31): tenants and owners; an empty form is refused.
  {
    method: "POST",
    route: `${area}/settings/fiscal`,
    body: () => ({ form: {} }),
    expect: page(role, role === "admin" ? 403 : 400),
  },
  {
    method: "POST",
    route: `${area}/settings/fiscal/remove`,
    expect: page(role, 303, role === "admin" ? "/admin/settings" : `${area}/settings#fiscal`),
  },
];

const comingSoon = (role: Role, paths: string[]): Row[] =>
  paths.map((p) => ({ method: "GET", route: p, expect: page(role) }));

/** Last month `YYYY-MM` (offered by the invoice's month selector in every time zone). */
const LAST_MONTH = (() => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
})();

const USERS_DONE = (done: string) => new RegExp(`^/admin/users\\?tab=[a-z-]+&done=${done}$`);

/**
 * A row asking for `route` with its `:params` filled in order by `args` of the fixture, sending
 * `body` if given.
 */
function at(
  method: Row["method"],
  route: string,
  args: (f: Fixture) => (string | number)[],
  expect: Row["expect"],
  body?: Row["body"],
): Row {
  const path = (f: Fixture) => {
    const values = args(f);
    const params = route.match(/:\w+/g) ?? [];
    assert.equal(values.length, params.length, `${route}: one value per parameter`);
    return route.replace(/:\w+/g, () => String(values.shift()));
  };
  return body ? { method, route, path, body, expect } : { method, route, path, expect };
}

/** Every route of the app. */
const ROUTES: Row[] = [
  // ---- static files and public pages ---------------------------------------------------
  {
    method: "GET",
    route: "/static/build/*",
    path: (f) => `/static/build/${f.css}`,
    expect: everyone(200),
  },
  { method: "GET", route: "/static/*", path: () => "/static/favicon.svg", expect: everyone(200) },
  { method: "GET", route: "/favicon.ico", expect: everyone(301, "/static/favicon.svg") },
  {
    method: "GET",
    route: "/",
    expect: each((a) => ({ status: 302, location: a === "anonymous" ? "/login" : home(a) })),
  },
  { method: "GET", route: "/login", expect: guestPage },
  { method: "POST", route: "/login", body: () => ({ form: {} }), expect: everyone(400) },
  { method: "GET", route: "/register", expect: guestPage },
  { method: "POST", route: "/register", body: () => ({ form: {} }), expect: everyone(400) },
  { method: "POST", route: "/logout", expect: everyone(303, "/login") },
  { method: "GET", route: "/forgot-password", expect: everyone(200) },
  { method: "POST", route: "/forgot-password", body: () => ({ form: {} }), expect: everyone(400) },
  { method: "GET", route: "/reset-password", expect: everyone(400) },
  { method: "POST", route: "/reset-password", body: () => ({ form: {} }), expect: everyone(400) },
  {
    method: "POST",
    route: "/api/auth/forgot-password",
    body: () => ({ json: {} }),
    expect: everyone(400),
  },
  {
    method: "POST",
    route: "/api/auth/reset-password",
    body: () => ({ json: {} }),
    expect: everyone(400),
  },
  { method: "GET", route: "/legal", expect: everyone(200) },
  { method: "GET", route: "/legal/dialog", expect: everyone(200) },
  {
    method: "POST",
    route: "/user/settings/profile",
    body: () => ({ form: {} }),
    expect: page("user", 303, "/user/settings?profile_saved=1#tenant-profile"),
  },
  { method: "GET", route: "/health", expect: everyone(200) },
  // Without METRICS_TOKEN the metrics are not served to anyone, a session or a key notwithstanding.
  { method: "GET", route: "/metrics", expect: everyone(404) },

  // ---- session API ---------------------------------------------------------------------
  { method: "POST", route: "/auth/login", body: () => ({ json: {} }), expect: everyone(400) },
  {
    method: "POST",
    route: "/auth/login/second-factor",
    body: () => ({ json: {} }),
    expect: everyone(400),
  },
  {
    method: "POST",
    route: "/login/second-factor",
    body: () => ({ form: {} }),
    expect: everyone(303, "/login"),
  },
  { method: "GET", route: "/api/audit-log", expect: api(["admin"], 200) },
  { method: "GET", route: "/admin/audit", expect: page("admin") },
  { method: "GET", route: "/admin/api-keys", expect: page("admin") },
  { method: "GET", route: "/api/openapi.json", expect: api(["admin"], 200) },
  { method: "GET", route: "/api/docs", expect: page("admin") },
  {
    method: "POST",
    route: "/admin/api-keys",
    body: () => ({ form: { name: "", scope: "read_only", expires_in_days: "30" } }),
    expect: page("admin", 400),
  },
  at("POST", "/admin/api-keys/:id/revoke", () => ["abcdefabcdef"], page("admin", 400)),
  { method: "POST", route: "/auth/register", body: () => ({ json: {} }), expect: everyone(400) },
  {
    method: "POST",
    route: "/api/auth/register",
    body: () => ({ json: {} }),
    expect: everyone(400),
  },
  {
    method: "GET",
    route: "/auth/verify",
    expect: signedInApi(200),
    check: async (res, a, f) => {
      assert.equal((await res.json()).user.id, f.who[a as "admin"].user.id);
    },
  },
  { method: "POST", route: "/auth/refresh", expect: signedInApi(200) },
  { method: "POST", route: "/auth/logout", expect: everyone(200) },
  {
    method: "POST",
    route: "/logging",
    body: () => ({ json: { level: "info", message: "matrix" } }),
    expect: everyone(201),
  },
  {
    method: "POST",
    route: "/api/logging",
    body: () => ({ json: { level: "info", message: "matrix" } }),
    expect: everyone(201),
  },

  // ---- zones API: admin only ---------------------------------------------------------
  { method: "GET", route: "/api/zones", expect: api(["admin"], 200) },
  {
    method: "POST",
    route: "/api/zones",
    body: () => ({ json: zoneJson("Matrix made") }),
    expect: api(["admin"], 201),
  },
  {
    method: "GET",
    route: "/api/zones/:id",
    path: (f) => `/api/zones/${f.zones.pricing}`,
    // The zone of the customer's station, where the first tenant's unit is (tenant pricing).
    expect: each((a) => ({ status: a === "anonymous" ? 401 : a === "tenant2" ? 404 : 200 })),
  },
  at(
    "PUT",
    "/api/zones/:id",
    (f) => [f.zones.api],
    api(["admin"], 200),
    () => ({ json: zoneJson("Matrix updated") }),
  ),
  at("GET", "/api/zones/:id/stations", (f) => [f.zones.api], api(["admin"], 200)),
  at("GET", "/api/zones/:id/history", (f) => [f.zones.api], api(["admin"], 200)),
  at("GET", "/api/zones/:id/versions", (f) => [f.zones.api], api(["admin"], 200)),
  at("DELETE", "/api/zones/:id", (f) => [f.zones.apiDelete], api(["admin"], 200)),

  // ---- bills API: processing and deletes admin only; lists filtered by owner ----------
  ...["/unified-billing/process", "/api/unified-billing/process"].map((route): Row => ({
    method: "POST",
    route,
    body: (f) => ({ json: { period: "2026-01", zone_id: f.zones.api } }),
    expect: api(["admin"], 200),
  })),
  ...["/api/bills", "/api/bimester-bills"].map((route, i): Row => ({
    method: "GET",
    route,
    expect: signedInApi(200),
    check: async (res, actor) => {
      const { bills } = await res.json() as { bills: { unit_id: string }[] };
      // Two bills of each kind for the tenant's unit and two for the vacant one; a tenant sees
      // its own unit's, the other tenant none. The admin also sees the spare station's draft
      // of the recalculation rows.
      assert.equal(
        bills.length,
        actor === "tenant2" ? 0 : actor === "admin" ? 5 : actor === "customer" ? 4 : 2,
        `${route} ${i}`,
      );
    },
  })),
  ...["/api/customer-bills", "/api/bimester-customer-bills"].map((route): Row => ({
    method: "GET",
    route,
    expect: api(["admin", "customer"], 200),
    check: async (res) => assert.equal((await res.json()).bills.length, 2),
  })),
  // ---- finances and the owner's billing overview (before the rows that delete bills) -----
  ...["/api/finances/overview", "/api/finances/bimonthly", "/api/finances/zones"].map(
    (route): Row => ({ method: "GET", route, expect: api(["admin"], 200) }),
  ),
  {
    method: "GET",
    route: "/api/finances/overview",
    path: () => "/api/finances/overview?currency=GBP",
    expect: api(["admin"], 400),
  },
  {
    method: "GET",
    route: "/api/customer-billing-overview/billing-type",
    expect: api(["customer"], 200),
  },
  {
    method: "GET",
    route: "/api/customer-billing-overview/overview",
    path: () => "/api/customer-billing-overview/overview?year=2025",
    expect: api(["customer"], 200),
  },
  {
    method: "GET",
    route: "/api/customer-billing-overview/cfe-reconciliation",
    expect: api(["customer"], 200),
    check: async (res, _a, f) => {
      for (const s of (await res.json()).stations) {
        assert.equal(s.station_id, f.dev.station, "a station the owner does not own");
      }
    },
  },
  {
    method: "GET",
    route: "/api/customer-billing-overview/detail",
    path: () => "/api/customer-billing-overview/detail?period=2025-01",
    expect: api(["customer"], 200),
    check: async (res, _a, f) => {
      const { unit_bills, customer_bills } = await res.json();
      for (const b of [...unit_bills, ...customer_bills]) {
        assert.equal(b.station_id, f.dev.station, "a bill of a station the owner does not own");
      }
    },
  },
  { method: "GET", route: "/admin/finances", expect: page("admin") },
  ...["details", "bimonthly", "zones"].map((what): Row => ({
    method: "GET",
    route: `/admin/finances/export/${what}.csv`,
    path: () => `/admin/finances/export/${what}.csv?currency=MXN`,
    expect: page("admin"),
  })),
  { method: "GET", route: "/customer/billing", expect: page("customer") },
  {
    method: "GET",
    route: "/customer/billing/report",
    path: () => "/customer/billing/report?station=999999&period=2025-01&language=en",
    expect: page("customer", 302),
  },
  ...["units", "customer"].map((what): Row => ({
    method: "GET",
    route: `/customer/billing/export/${what}.csv`,
    path: () => `/customer/billing/export/${what}.csv?period=2025-01`,
    expect: page("customer"),
  })),
  // The building's CFE bill: the owner's own station; entered without a PDF, so none to read.
  {
    method: "POST",
    route: "/customer/billing/cfe-bill",
    body: (f) => ({
      form: { station: String(f.dev.station), period: "2025-01", kwh: "100", amount: "50" },
    }),
    expect: page("customer", 303, /^\/customer\/billing\?year=2025&cfe_saved=1#cfe-\d+$/),
  },
  {
    method: "GET",
    route: "/customer/billing/cfe-bill.pdf",
    path: (f) => `/customer/billing/cfe-bill.pdf?station=${f.dev.station}&period=2025-01`,
    expect: page("customer", 404),
  },
  // ---- the tenant's bills (before the rows that delete the fixture's bills) -------------
  {
    method: "GET",
    route: "/api/tenant-billing-overview/billing-type",
    expect: api(["user"], 200),
    check: async (res, a) => assert.equal((await res.json()).sensors_count, a === "tenant" ? 1 : 0),
  },
  {
    method: "GET",
    route: "/api/tenant-billing-overview/overview",
    path: () => "/api/tenant-billing-overview/overview?year=2025",
    expect: api(["user"], 200),
    check: async (res, a) =>
      assert.equal((await res.json()).yearly_overview.total_bills, a === "tenant" ? 4 : 0),
  },
  {
    method: "GET",
    route: "/api/tenant-billing-overview/detail",
    path: () => "/api/tenant-billing-overview/detail?period=2025-01",
    expect: api(["user"], 200),
    check: async (res, a) => {
      const { unit_bills } = await res.json();
      assert.deepEqual(
        unit_bills.map((b: { unit_id: string }) => b.unit_id),
        a === "tenant" ? ["unit_1"] : [],
      );
    },
  },
  {
    method: "GET",
    route: "/user/billing/report",
    path: (f) => `/user/billing/report?station=${f.dev.station}&unit=unit_1&period=2025-01`,
    expect: { ...page("user"), tenant2: { status: 404 } },
    check: async (res) => {
      assert.equal(res.headers.get("content-type"), "application/pdf");
      assert.ok((await res.arrayBuffer()).byteLength > 1000);
    },
  },
  {
    method: "GET",
    route: "/user/billing/pdf",
    path: () => "/user/billing/pdf?period=2025-01",
    expect: { ...page("user"), tenant2: { status: 404 } },
    check: async (res) => {
      assert.equal(res.headers.get("content-type"), "application/pdf");
      assert.ok((await res.arrayBuffer()).byteLength > 1000);
    },
  },
  ...["/bills/:id", "/api/bills/:id", "/bimester-bills/:id", "/api/bimester-bills/:id"].map(
    (route, i): Row => ({
      method: "DELETE",
      route,
      path: (f) => route.replace(":id", String(f.bills.unit[i])),
      expect: api(["admin"], 200),
    }),
  ),
  ...[
    "/customer-bills/:id",
    "/api/customer-bills/:id",
    "/bimester-customer-bills/:id",
    "/api/bimester-customer-bills/:id",
  ].map((route, i): Row => ({
    method: "DELETE",
    route,
    path: (f) => route.replace(":id", String(f.bills.customer[i])),
    expect: api(["admin"], 200),
  })),
  ...["/api/bills/:id", "/api/bimester-bills/:id"].map((route, i): Row => ({
    method: "PUT",
    route,
    path: (f) => route.replace(":id", String(f.recalc[i])),
    body: () => ({
      json: {
        override_reason: "Matrix",
        recalculation_method: "manual_input",
        energy_consumption: "120",
      },
    }),
    expect: api(["admin"], 200),
    check: async (res) => assert.equal((await res.json()).recalculation_method, "manual_input"),
  })),

  // ---- users API: admin only, except the profile -------------------------------------
  {
    method: "GET",
    route: "/api/users/profile",
    expect: signedInApi(200),
    check: async (res, a, f) => {
      assert.equal((await res.json()).id, f.who[a as "admin"].user.id);
    },
  },
  {
    method: "PUT",
    route: "/api/users/profile",
    body: (f, a) => ({ json: ownProfile(f, a) }),
    expect: signedInApi(200),
    check: async (res, a, f) => {
      assert.equal((await res.json()).id, f.who[a as "admin"].user.id);
    },
  },
  { method: "GET", route: "/api/users/stats", expect: api(["admin"], 200) },
  { method: "GET", route: "/api/users/access-codes", expect: api(["admin"], 200) },
  {
    method: "POST",
    route: "/api/users/access-codes",
    body: () => ({ json: { code: "MTRX2345", role: "user" } }),
    expect: api(["admin"], 201),
  },
  at("DELETE", "/api/users/access-codes/:id", (f) => [f.codes.apiDelete], api(["admin"], 200)),
  { method: "GET", route: "/api/users", expect: api(["admin"], 200) },
  {
    method: "POST",
    route: "/api/users",
    body: () => ({
      json: { email: "made-by-api@test.mx", full_name: "Made", role: "user", password: "secret1" },
    }),
    expect: api(["admin"], 201),
  },
  at("GET", "/api/users/:id", (f) => [f.who.tenant.user.id], api(["admin"], 200)),
  {
    method: "PUT",
    route: "/api/users/:id",
    path: (f) => `/api/users/${f.victims.apiUpdate.id}`,
    body: (f) => ({
      json: { email: f.victims.apiUpdate.email, full_name: "Updated", role: "customer" },
    }),
    expect: api(["admin"], 200),
  },
  at("DELETE", "/api/users/:id", (f) => [f.victims.apiDelete.id], api(["admin"], 200)),
  at("POST", "/api/users/:id/toggle", (f) => [f.victims.apiToggle.id], api(["admin"], 200)),

  // ---- alerts: read by each role within what it sees, changed by admins ---------------
  { method: "GET", route: "/api/alerts", expect: signedInApi(200) },
  { method: "GET", route: "/api/alerts/rules", expect: api(["admin"], 200) },
  {
    method: "POST",
    route: "/api/alerts/rules",
    body: () => ({ json: { template: "no_data" } }),
    expect: api(["admin"], 201),
  },
  ...[
    "DELETE /api/alerts/rules/:id",
    "POST /api/alerts/:id/acknowledge",
    "POST /api/alerts/:id/resolve",
  ]
    .map((r): Row => {
      const [method, route] = r.split(" ") as [Row["method"], string];
      return {
        method,
        route,
        path: () => route.replace(":id", "none"),
        body: () => ({ json: {} }),
        expect: api(["admin"], 404),
      };
    }),

  // ---- notifications: each user only their own ----------------------------------------
  {
    method: "GET",
    route: "/api/notifications",
    path: () => "/api/notifications?status=all",
    expect: signedInApi(200),
    check: async (res, a, f) => {
      const list = (await res.json()).notifications as { user_id: number }[];
      assert.ok(list.length > 0, `${a} has notifications`);
      for (const n of list) assert.equal(n.user_id, f.who[a as "admin"].user.id, a);
    },
  },
  {
    method: "GET",
    route: "/api/notifications/count",
    expect: signedInApi(200),
    check: async (res, a) => {
      assert.equal((await res.json()).total_count, a === "tenant" ? 2 : 1, a);
    },
  },
  at("POST", "/api/notifications/:id/resolve", (f) => [f.notes.api], {
    ...signedInApi(404),
    tenant: { status: 200 },
  }),
  { method: "GET", route: "/notifications", expect: page("any") },
  {
    method: "POST",
    route: "/notifications/:id/resolve",
    path: (f) => `/notifications/${f.notes.page}/resolve`,
    expect: {
      ...page("any", 303, "/notifications?error=errors.notification_not_found"),
      tenant: { status: 303, location: "/notifications" },
    },
  },

  // ---- devices: reads limited to what each role may see, changes admin only ----------
  {
    method: "GET",
    route: "/api/devices",
    expect: signedInApi(200),
    check: async (res, a, f) => {
      const got = ((await res.json()).devices as { id: number }[]).map((d) => d.id).sort();
      const d = f.dev;
      const want = a === "admin"
        ? null
        : a === "customer" || a === "tenant"
        ? [d.station, d.sensor]
        : [];
      if (want) assert.deepEqual(got, want.sort(), a);
      else assert.ok(got.length >= 6, a);
    },
  },
  {
    method: "GET",
    route: "/api/devices/stats",
    expect: signedInApi(200),
    check: async (res, a) => {
      const stats = await res.json();
      assert.equal(stats.sensorCount, a === "admin" ? 3 : a === "tenant2" ? 0 : 1, a);
    },
  },
  {
    method: "POST",
    route: "/api/devices/statuses",
    body: (f) => ({ json: { deviceIds: [f.dev.station, f.dev.sensor, f.dev.spare] } }),
    expect: signedInApi(200),
    check: async (res, a) => {
      const keys = Object.keys((await res.json()).statuses).sort();
      const want = a === "admin"
        ? ["MX-1", "MX-1A", "MX-2"]
        : a === "tenant2"
        ? []
        : ["MX-1", "MX-1A"];
      assert.deepEqual(keys, want, a);
    },
  },
  {
    method: "POST",
    route: "/api/devices/assign-customer",
    body: (f) => ({ json: { customer_id: f.who.customer.user.id, station_ids: [f.dev.station] } }),
    expect: api(["admin"], 200),
  },
  {
    method: "POST",
    route: "/api/devices/assign-tenant",
    body: (f) => ({ json: { tenant_id: f.who.tenant.user.id, sensor_ids: [f.dev.sensor] } }),
    expect: api(["admin"], 200),
  },
  at("POST", "/api/devices/remove-customer/:id", (f) => [f.dev.spare], api(["admin"], 200)),
  at("POST", "/api/devices/remove-tenant/:id", (f) => [f.dev.spareSensor], api(["admin"], 200)),
  at("GET", "/api/devices/:id/tenancies", (f) => [f.dev.sensor], api(["admin"], 200)),
  {
    method: "POST",
    route: "/api/devices",
    body: () => ({ json: matrixStation("MX-NEW") }),
    expect: api(["admin"], 201),
  },
  at("GET", "/api/devices/:id", (f) => [f.dev.station], ofStation200()),
  { method: "GET", route: "/api/measurements/overview", expect: signedInApi(200) },
  {
    method: "GET",
    route: "/api/measurements",
    path: () => "/api/measurements?mode=day",
    expect: signedInApi(200),
  },
  { method: "GET", route: "/api/measurements/system-stats", expect: signedInApi(200) },
  {
    method: "GET",
    route: "/api/measurements/system-performance",
    path: () => "/api/measurements/system-performance?timeframe=24h",
    expect: signedInApi(200),
  },
  at("GET", "/api/measurements/:id/realtime", (f) => [f.dev.sensor], ofStation200()),
  {
    method: "GET",
    route: "/api/measurements/:id/history",
    path: (f) => `/api/measurements/${f.dev.sensor}/history?aggregation=15m`,
    expect: ofStation200(),
  },
  {
    method: "GET",
    route: "/api/measurements/:id/summary",
    path: (f) => `/api/measurements/${f.dev.sensor}/summary?month=2026-01`,
    expect: ofStation200(),
  },
  {
    method: "GET",
    route: "/api/analytics/uptime/:id",
    path: (f) => `/api/analytics/uptime/${f.dev.sensor}?month=2026-01`,
    expect: ofStation200(),
  },
  {
    method: "GET",
    route: "/api/analytics/delta",
    path: (f) =>
      `/api/analytics/delta?sensorId=${f.dev.sensor}&startDate=2026-01-01&endDate=2026-02-01`,
    expect: ofStation200(),
  },
  at("GET", "/api/devices/:id/status", (f) => [f.dev.sensor], ofStation200()),
  at(
    "PUT",
    "/api/devices/:id",
    (f) => [f.dev.spare],
    api(["admin"], 200),
    () => ({ json: matrixStation("MX-2") }),
  ),
  at("DELETE", "/api/devices/:id", (f) => [f.dev.empty], api(["admin"], 200)),
  at("GET", "/api/devices/:id/sensors", (f) => [f.dev.station], ofStation200()),
  at(
    "POST",
    "/api/devices/:id/sensors",
    (f) => [f.dev.spare],
    api(["admin"], 201),
    () => ({ json: matrixSensor("MX-2C", "unit_3") }),
  ),
  at(
    "GET",
    "/api/devices/:id/sensors/:sensorId",
    (f) => [f.dev.station, f.dev.sensor],
    ofStation200(),
  ),
  at(
    "PUT",
    "/api/devices/:id/sensors/:sensorId",
    (f) => [f.dev.spare, f.dev.spareSensor],
    api(["admin"], 200),
    () => ({ json: matrixSensor("MX-2A", "unit_1") }),
  ),
  at(
    "DELETE",
    "/api/devices/:id/sensors/:sensorId",
    (f) => [f.dev.spare, f.dev.doomedSensor],
    api(["admin"], 200),
  ),

  // ---- admin area ----------------------------------------------------------------------
  ...areaHome("admin", "/admin"),
  ...comingSoon("admin", [
    "/admin/units-billing",
    "/admin/stations-billing",
    "/admin/stats",
  ]),
  { method: "GET", route: "/admin/users", expect: page("admin") },
  // ---- admin zone pages ------------------------------------------------------------------
  { method: "GET", route: "/admin/pricing", expect: page("admin") },
  at("GET", "/admin/zones/:id", (f) => [f.zones.page], page("admin")),
  { method: "GET", route: "/admin/zones/create", expect: page("admin") },
  { method: "GET", route: "/admin/zones/new", expect: page("admin") },
  {
    method: "POST",
    route: "/admin/zones/create",
    body: () => ({ form: { name: "Form zone", pricing_mode: "basic", price_low: "1.2" } }),
    expect: page("admin", 303, "/admin/pricing?done=created"),
  },
  {
    method: "POST",
    route: "/admin/zones/new",
    body: () => ({ form: { name: "Form zone 2", pricing_mode: "basic", price_low: "1.2" } }),
    expect: page("admin", 303, "/admin/pricing?done=created"),
  },
  at("GET", "/admin/zones/:id/edit", (f) => [f.zones.page], page("admin")),
  at(
    "POST",
    "/admin/zones/:id/edit",
    (f) => [f.zones.page],
    page("admin", 303, "/admin/pricing?done=updated"),
    () => ({ form: { name: "Form updated", pricing_mode: "basic", price_low: "2" } }),
  ),
  at(
    "POST",
    "/admin/zones/:id/delete",
    (f) => [f.zones.pageDelete],
    page("admin", 303, "/admin/pricing?done=deleted"),
    () => ({ form: { confirm: "yes" } }),
  ),
  // ---- admin device pages (the matrix's devices: see deviceFixture) --------------------
  { method: "GET", route: "/admin/devices", expect: page("admin") },
  { method: "GET", route: "/admin/devices/station/create", expect: page("admin") },
  {
    method: "POST",
    route: "/admin/devices/station/create",
    body: () => ({ form: pageStationForm("MX-PAGE", "mq-pw-0123456789") }),
    expect: page("admin", 303, /^\/admin\/devices\/station\/\d+\/data\?done=created$/),
  },
  at("GET", "/admin/devices/station/:id", (f) => [f.dev.station], page("admin")),
  at(
    "POST",
    "/admin/devices/station/:id",
    (f) => [f.dev.station],
    page("admin", 303, /^\/admin\/devices\/station\/\d+\/data\?done=updated$/),
    () => ({ form: pageStationForm("MX-1", "") }),
  ),
  at("GET", "/admin/devices/station/:id/data", (f) => [f.dev.station], page("admin")),
  at("GET", "/admin/devices/station/:id/cfe-bill", (f) => [f.dev.station], page("admin")),
  at(
    "POST",
    "/admin/devices/station/:id/cfe-bill",
    (f) => [f.dev.station],
    page("admin", 303, /^\/admin\/devices\/station\/\d+\/cfe-bill\?done=cfe_bill_saved$/),
    () => ({ form: { period: "2025-02", kwh: "100", amount: "50" } }),
  ),
  {
    method: "GET",
    route: "/admin/devices/station/:id/cfe-bill.pdf",
    path: (f) => `/admin/devices/station/${f.dev.station}/cfe-bill.pdf?period=2025-02`,
    expect: page("admin", 404),
  },
  at(
    "POST",
    "/admin/devices/station/:id/delete",
    (f) => [f.dev.station],
    page(
      "admin",
      303,
      /^\/admin\/devices\/station\/\d+\/data\?error=station_has_sensors$/,
    ),
    () => ({ form: { confirm: "yes" } }),
  ),
  at("GET", "/admin/devices/station/:id/sensor/create", (f) => [f.dev.station], page("admin")),
  at(
    "POST",
    "/admin/devices/station/:id/sensor/create",
    (f) => [f.dev.station],
    page("admin", 303, /^\/admin\/devices\/station\/\d+\/data\?done=sensor_created$/),
    () => ({ form: pageSensorForm("MX-1P", "unit_2", null) }),
  ),
  at(
    "GET",
    "/admin/devices/station/:id/sensor/:sensorId",
    (f) => [f.dev.station, f.dev.sensor],
    page("admin"),
  ),
  at(
    "POST",
    "/admin/devices/station/:id/sensor/:sensorId",
    (f) => [f.dev.station, f.dev.sensor],
    page("admin", 303, /^\/admin\/devices\/station\/\d+\/data\?done=sensor_updated$/),
    (f) => ({ form: pageSensorForm("MX-1A", "unit_1", f.who.tenant.user.id) }),
  ),
  at(
    "GET",
    "/admin/devices/station/:id/sensor/:sensorId/data",
    (f) => [f.dev.station, f.dev.sensor],
    page("admin"),
  ),
  at(
    "POST",
    "/admin/devices/station/:id/sensor/:sensorId/tenancy/move-out",
    (f) => [f.dev.station, f.dev.sensor],
    page("admin", 303, /\/sensor\/\d+\/data\?(td|te)=/),
    () => ({ form: { effective_from: "", reading_kwh: "" } }),
  ),
  at(
    "POST",
    "/admin/devices/station/:id/sensor/:sensorId/tenancy/move-in",
    (f) => [f.dev.station, f.dev.sensor],
    page("admin", 303, /\/sensor\/\d+\/data\?(td|te)=/),
    (f) => ({ form: { tenant_id: String(f.who.tenant.user.id), effective_from: "" } }),
  ),
  at(
    "POST",
    "/admin/devices/station/:id/sensor/:sensorId/delete",
    (f) => [f.dev.spare, f.dev.spareSensor],
    page("admin", 303, /^\/admin\/devices\/station\/\d+\/data\?done=sensor_deleted$/),
    () => ({ form: { confirm: "yes" } }),
  ),
  at("GET", "/admin/report/station/:id", (f) => [f.dev.station], page("admin")),
  at(
    "GET",
    "/admin/report/station/:id/unit/:unitId",
    (f) => [f.dev.station, "unit_1"],
    page("admin"),
  ),
  at(
    "POST",
    "/admin/users/:id/toggle",
    (f) => [f.victims.pageToggle.id],
    page("admin", 303, USERS_DONE("deactivated")),
    () => ({ form: { confirm: "yes" } }),
  ),
  at(
    "POST",
    "/admin/users/:id/delete",
    (f) => [f.victims.pageDelete.id],
    page("admin", 303, USERS_DONE("deleted")),
    () => ({ form: { confirm: "yes" } }),
  ),
  {
    method: "GET",
    route: "/admin/users/accounts-form/:type",
    path: () => "/admin/users/accounts-form/customer",
    expect: page("admin"),
  },
  at(
    "GET",
    "/admin/users/accounts-form/:type/:id",
    (f) => ["customer", f.who.customer.user.id],
    page("admin"),
  ),
  {
    method: "POST",
    route: "/admin/users/accounts-form/:type",
    path: () => "/admin/users/accounts-form/customer",
    body: () => ({
      form: {
        email: "made-by-form@test.mx",
        full_name: "Form Made",
        role: "customer",
        password: "secret1",
        is_active: "on",
      },
    }),
    expect: page("admin", 303, USERS_DONE("created")),
  },
  {
    method: "POST",
    route: "/admin/users/accounts-form/:type/:id",
    path: (f) => `/admin/users/accounts-form/user/${f.victims.pageUpdate.id}`,
    body: (f) => ({
      form: {
        email: f.victims.pageUpdate.email,
        full_name: "Form Updated",
        role: "user",
        is_active: "on",
      },
    }),
    expect: page("admin", 303, USERS_DONE("updated")),
  },
  { method: "GET", route: "/admin/access-codes/create", expect: page("admin") },
  {
    method: "POST",
    route: "/admin/access-codes/create",
    body: () => ({ form: { code: "PAGE2345", role: "user" } }),
    expect: page("admin", 303, USERS_DONE("code_created")),
  },
  at(
    "POST",
    "/admin/access-codes/:id/delete",
    (f) => [f.codes.pageDelete],
    page("admin", 303, USERS_DONE("code_deleted")),
    () => ({ form: { confirm: "yes" } }),
  ),

  // ---- customer area -------------------------------------------------------------------
  ...areaHome("customer", "/customer"),
  { method: "GET", route: "/customer/finances", expect: page("customer") },
  // The customer's own station answers; a station of no customer of theirs is not found.
  at("GET", "/customer/installations/:id", (f) => [f.dev.station], page("customer")),
  at("GET", "/customer/installations/:id", (f) => [f.dev.spare], page("customer", 404)),
  at(
    "GET",
    "/customer/installations/:installationId/unit/:unitId",
    (f) => [f.dev.station, f.dev.sensor],
    page("customer"),
  ),
  at(
    "GET",
    "/customer/installations/:installationId/unit/:unitId",
    (f) => [f.dev.spare, f.dev.spareSensor],
    page("customer", 404),
  ),
  {
    method: "GET",
    route: "/customer/installations/:id/invoice",
    // No finalized bill that month: back to the page with the download error.
    path: (f) => `/customer/installations/${f.dev.station}/invoice?month=${LAST_MONTH}&language=en`,
    expect: page("customer", 302, /invoice_error=1$/),
  },
  {
    method: "GET",
    route: "/customer/installations/:id/invoice",
    path: (f) => `/customer/installations/${f.dev.spare}/invoice?month=${LAST_MONTH}&language=es`,
    expect: page("customer", 404),
  },

  // ---- tenant area ---------------------------------------------------------------------
  ...areaHome("user", "/user"),
  { method: "GET", route: "/user/consumption", expect: page("user") },
  {
    method: "GET",
    route: "/user/consumption/:id",
    path: (f) => `/user/consumption/${f.dev.sensor}?tab=insights`,
    expect: { ...page("user"), tenant2: { status: 404 } },
  },
  { method: "GET", route: "/user/pricing", expect: page("user") },
  { method: "GET", route: "/user/billing", expect: page("user") },
  // ---- payments (issue 12): the fixture's bills are drafts, so no tenant may pay them ----
  { method: "GET", route: "/user/payments", expect: page("user") },
  { method: "GET", route: "/user/payment", expect: page("user") },
  {
    method: "GET",
    route: "/user/payment/success",
    path: (f) => `/user/payment/success?bill=${f.bills.unit[0]}`,
    expect: page("user", 404),
  },
  {
    method: "GET",
    route: "/user/payment/receipt",
    path: (f) => `/user/payment/receipt?bill=${f.bills.unit[0]}`,
    expect: page("user", 404),
  },
  {
    method: "POST",
    route: "/user/payment/generate",
    body: (f) => ({ form: { bill: String(f.bills.unit[0]) } }),
    expect: page("user", 404),
  },
  {
    method: "GET",
    route: "/api/tenant-payments/summary",
    expect: api(["user"], 200),
    check: async (res) => assert.equal((await res.json()).pending_payments.length, 0),
  },
  at("GET", "/api/tenant-payments/:id", (f) => [f.bills.unit[0]], api(["user"], 404)),
  at("POST", "/api/tenant-payments/:id/pay", (f) => [f.bills.unit[0]], api(["user"], 404), () => ({
    json: {},
  })),
  { method: "POST", route: "/api/webhooks/openpay", expect: everyone(401) },
  { method: "GET", route: "/admin/payments", expect: page("admin") },
  { method: "GET", route: "/admin/messages", expect: page("admin") },
  { method: "GET", route: "/admin/alerts", expect: page("admin") },
  {
    method: "POST",
    route: "/admin/alerts/rules",
    body: () => ({ form: { template: "phase_lost" } }),
    expect: page("admin", 303, "/admin/alerts?done=rules.created"),
  },
  ...[
    "/admin/alerts/:id/acknowledge",
    "/admin/alerts/:id/resolve",
    "/admin/alerts/rules/:id/delete",
  ]
    .map((route): Row => ({
      method: "POST",
      route,
      path: () => route.replace(":id", "none"),
      body: () => ({ form: {} }),
      expect: page("admin", 404),
    })),
  // Invoices (issue 31): unknown invoices are not found; a bad month is refused.
  { method: "GET", route: "/admin/invoices", expect: page("admin") },
  {
    method: "GET",
    route: "/admin/invoices/file",
    path: () => "/admin/invoices/file?key=bill:1&format=pdf",
    expect: page("admin", 404),
  },
  {
    method: "POST",
    route: "/admin/invoices/retry",
    body: () => ({ form: { key: "bill:1" } }),
    expect: page("admin", 404),
  },
  {
    method: "POST",
    route: "/admin/invoices/cancel",
    body: () => ({ form: { key: "bill:1", motive: "02" } }),
    expect: page("admin", 404),
  },
  {
    method: "POST",
    route: "/admin/invoices/global",
    body: () => ({ form: { month: "2026-13" } }),
    expect: page("admin", 400),
  },
  {
    method: "GET",
    route: "/customer/invoices/file",
    path: () => "/customer/invoices/file?key=bill:1&format=pdf",
    expect: page("customer", 404),
  },
  {
    method: "GET",
    route: "/user/invoices/file",
    path: () => "/user/invoices/file?key=bill:1&format=xml",
    expect: page("user", 404),
  },
  {
    method: "POST",
    route: "/user/billing/invoice",
    body: () => ({ form: { bill_id: "none" } }),
    expect: page("user", 400),
  },
  {
    method: "POST",
    route: "/admin/messages/resend",
    body: () => ({ form: { id: "nothing" } }),
    expect: page("admin", 404),
  },
  at("GET", "/admin/messages/files/:name", () => ["x.eml"], page("admin", 404)),
  at(
    "POST",
    "/admin/messages/reset-link/:id",
    (f) => [f.victims.pageUpdate.id],
    page("admin", 303, /^\/admin\/messages\?reset_sent=/),
  ),
  {
    method: "POST",
    route: "/admin/payments/simulate",
    body: (f) => ({ form: { bill: String(f.bills.unit[0]) } }),
    expect: page("admin"),
  },

  // ---- paths no route matches ----------------------------------------------------------
  { method: "GET", route: null, path: () => "/no-such-page", expect: everyone(302, "/") },
  { method: "GET", route: null, path: () => "/api/no-such-call", expect: everyone(404) },
  { method: "POST", route: null, path: () => "/admin-ish", expect: everyone(404) },

  // ---- admin billing pages (the units and stations pages' GET rows: the list above) ----
  ...[
    "/admin/billing",
    "/admin/bimester-billing",
    "/admin/customer-billing",
    "/admin/bimester-customer-billing",
  ].map((route): Row => ({ method: "GET", route, expect: page("admin") })),
  ...[
    "/admin/units-billing",
    "/admin/stations-billing",
    "/admin/billing",
    "/admin/bimester-billing",
    "/admin/customer-billing",
    "/admin/bimester-customer-billing",
  ].flatMap((base): Row[] => [
    {
      method: "POST",
      route: `${base}/process`,
      body: () => ({ form: { zone_id: "1", period: "2026-01" } }),
      expect: page("admin"),
    },
    {
      method: "POST",
      route: `${base}/bills/:id/delete`,
      path: () => `${base}/bills/999999/delete`,
      body: () => ({ form: { confirm: "yes" } }),
      expect: page("admin", 303, /error=bill_not_found/),
    },
    {
      method: "GET",
      route: `${base}/export.csv`,
      path: (f) => `${base}/export.csv?zone_id=${f.zones.api}&period=2026-01`,
      expect: page("admin"),
    },
    ...(base.includes("customer") || base.includes("stations") ? [] : [
      {
        method: "GET",
        route: `${base}/bills/:id/payment`,
        path: () => `${base}/bills/999999/payment`,
        expect: page("admin", 404),
      },
      {
        method: "POST",
        route: `${base}/bills/:id/payment`,
        path: () => `${base}/bills/999999/payment`,
        body: () => ({ form: { method: "cash", payment_date: "2026-01-05" } }),
        expect: page("admin", 404),
      },
    ] as Row[]),
  ]),
  ...["/api/bills/:id/payments", "/api/bimester-bills/:id/payments"].map((route): Row => ({
    method: "POST",
    route,
    path: (f) => route.replace(":id", String(f.bills.vacant[route.includes("bimester") ? 2 : 0])),
    body: () => ({ json: { method: "transfer", payment_date: "2025-08-01", reference: "T-1" } }),
    expect: api(["admin"], 200),
    check: async (res) => assert.equal((await res.json()).payment_status, "paid"),
  })),
  // ---- device certificates and MQTT connection tests ------------------------------------
  at("GET", "/api/devices/:sensorId/certificate", (f) => [f.dev.sensor], api(["admin"], 200)),
  {
    method: "GET",
    route: "/api/devices/:sensorId/certificates/:file",
    path: (f) => `/api/devices/${f.dev.sensor}/certificates/key`,
    expect: api(["admin"], 200),
    check: async (res) => {
      assert.match(await res.text(), /^-----BEGIN PRIVATE KEY-----/);
    },
  },
  at(
    "POST",
    "/api/devices/:sensorId/certificate/renew",
    (f) => [f.dev.sensor],
    api(["admin"], 200),
  ),
  at(
    "POST",
    "/api/devices/:sensorId/certificate/verify",
    (f) => [f.dev.sensor],
    api(["admin"], 200),
  ),
  at(
    "POST",
    "/admin/devices/station/:id/sensor/:sensorId/certificate/renew",
    (f) => [f.dev.station, f.dev.sensor],
    page("admin", 303, /\/data\?done=certificate_renewed#certificate$/),
    () => ({ form: { confirm: "yes" } }),
  ),
  {
    method: "POST",
    route: "/admin/devices/station/:id/sensor/:sensorId/certificate/verify",
    path: (f) =>
      `/admin/devices/station/${f.dev.station}/sensor/${f.dev.sensor}/certificate/verify`,
    expect: page("admin", 303, /\/data\?verified=ok#certificate$/),
  },
  {
    method: "POST",
    route: "/api/devices/:id/sensors/:sensorId/test-mqtt-connection",
    path: (f) => `/api/devices/${f.dev.station}/sensors/${f.dev.sensor}/test-mqtt-connection`,
    expect: api(["admin"], 200),
    check: async (res) => {
      const body = await res.json();
      assert.equal(typeof body.success, "boolean");
      assert.equal(typeof body.message, "string");
    },
  },
  at(
    "POST",
    "/admin/devices/station/:id/sensor/:sensorId/test-mqtt",
    (f) => [f.dev.station, f.dev.sensor],
    page("admin", 303, /\/sensor\/\d+\/data\?mqtt_test=[a-z_]+/),
  ),
  // ---- a sensor's meters (the tenant's sensor: readings an hour or two back, a new meter) --
  at(
    "GET",
    "/api/devices/:id/sensors/:sensorId/meters",
    (f) => [f.dev.station, f.dev.sensor],
    api(["admin"], 200),
  ),
  at(
    "POST",
    "/api/devices/:id/sensors/:sensorId/manual-readings",
    (f) => [f.dev.station, f.dev.sensor],
    api(["admin"], 201),
    () => ({ json: { at: new Date(Date.now() - 2 * 3_600_000).toISOString(), kwh: 10 } }),
  ),
  at(
    "POST",
    "/admin/devices/station/:id/sensor/:sensorId/meter/reading",
    (f) => [f.dev.station, f.dev.sensor],
    page("admin", 303, /\/sensor\/\d+\/data\?done=reading_saved#meters$/),
    // The portal's local time (UTC-6 by default), as the form's date and time field sends it.
    () => ({
      form: {
        at: new Date(Date.now() - 3_600_000 - 360 * 60_000).toISOString().slice(0, 16),
        kwh: "20",
      },
    }),
  ),
  at(
    "POST",
    "/api/devices/:id/sensors/:sensorId/meters",
    (f) => [f.dev.station, f.dev.sensor],
    api(["admin"], 200),
    () => ({ json: { serial_number: "MX-1R", at: new Date(Date.now() - 600_000).toISOString() } }),
  ),
  at(
    "POST",
    "/admin/devices/station/:id/sensor/:sensorId/meter/replace",
    (f) => [f.dev.station, f.dev.sensor],
    page("admin", 303, /\/sensor\/\d+\/data\?done=meter_replaced#meters$/),
    () => ({
      form: {
        serial_number: "MX-1S",
        at: new Date(Date.now() - 360 * 60_000).toISOString().slice(0, 16),
      },
    }),
  ),

  // ---- reports ---------------------------------------------------------------------------
  ...(["/reports/generate", "/api/reports/generate"] as const).map((route, i): Row => ({
    method: "POST",
    route,
    // A unit bill of the spare station (no customer, no tenant): only the admin may have it.
    body: (f) => ({
      json: {
        reportType: i === 0 ? "bimester" : "monthly",
        stationId: f.dev.spare,
        unitId: "unit_1",
        [i === 0 ? "period" : "month"]: i === 0 ? "2024-01-02" : "2024-01",
        language: "en",
      },
    }),
    expect: each((a) =>
      a === "anonymous" ? { status: 401 } : a === "admin" ? { status: 200 } : { status: 404 }
    ),
    check: async (res) => {
      assert.equal(res.headers.get("content-type"), "application/pdf");
      await res.body?.cancel();
    },
  })),
  {
    method: "GET",
    route: "/admin/report/station/:id/pdf",
    path: (f) => `/admin/report/station/${f.dev.spare}/pdf?type=unit&period=2024-01&unit=unit_1`,
    expect: page("admin"),
    check: async (res) => {
      assert.equal(res.headers.get("content-type"), "application/pdf");
      await res.body?.cancel();
    },
  },
  {
    method: "POST",
    route: "/admin/report/station/:id/unit/:unitId/recalculate",
    path: (f) => `/admin/report/station/${f.dev.spare}/unit/unit_1/recalculate`,
    body: (f) => ({
      form: {
        bill_id: String(f.recalc[0]),
        period: "2024-01",
        recalculation_method: "manual_input",
        energy_consumption: "120",
        override_reason: "Matrix",
      },
    }),
    expect: page("admin", 303, /\/unit\/unit_1\?period=2024-01&done=recalculated/),
  },

  // ---- ingest health ---------------------------------------------------------------------
  { method: "GET", route: "/api/measurements/ingest-health", expect: api(["admin"], 200) },
];

/** Builds the app and the records the rows point at. */
async function fixture(t: TestApp): Promise<Fixture> {
  const who = {
    admin: await account(t, "admin"),
    customer: await account(t, "customer"),
    tenant: await account(t, "user"),
    tenant2: await account(t, "user"),
  };
  const hash = await hashPassword("secret1");
  const victim = (name: string, role: Role) =>
    createUser(t.deps.kv, {
      email: `${name.toLowerCase()}@victims.test`,
      full_name: `Victim ${name}`,
      role,
      password_hash: hash,
    }, Date.now());
  const victims = {
    apiUpdate: await victim("apiUpdate", "customer"),
    apiDelete: await victim("apiDelete", "user"),
    apiToggle: await victim("apiToggle", "user"),
    pageToggle: await victim("pageToggle", "user"),
    pageDelete: await victim("pageDelete", "customer"),
    pageUpdate: await victim("pageUpdate", "user"),
  };
  const code = async (c: string) => (await seedAccessCode(t.deps.kv, c, "user")).id;
  const codes = { apiDelete: await code("DLAP2345"), pageDelete: await code("DLPG2345") };
  const note = async (userId: number) =>
    (await createNotification(t.deps.kv, {
      user_id: userId,
      type: "bill_created",
      priority: "low",
      title: "Bill",
      message: "A bill",
    }, Date.now())).id;
  const notes = { api: await note(who.tenant.user.id), page: await note(who.tenant.user.id) };
  for (const other of [who.admin, who.customer, who.tenant2]) await note(other.user.id);
  const dev = await deviceFixture(t, who);
  const zone = async (name: string) => {
    const res = await call(t, "POST", "/api/zones", {
      token: who.admin.token,
      json: zoneJson(name),
    });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()).id as number;
  };
  const zones = {
    api: await zone("Matrix API"),
    apiDelete: await zone("Matrix API delete"),
    page: await zone("Matrix page"),
    pageDelete: await zone("Matrix page delete"),
    pricing: await zone("Matrix pricing"),
  };
  const zoned = await updateDevice(
    t.deps.kv,
    dev.station,
    (d) => ({ ...d, zone_id: zones.pricing }),
  );
  assert.ok(zoned.ok);
  const bills = await billFixture(t, dev.station, who.tenant.user.id, who.customer.user.id);
  const recalc = await recalcFixture(t, dev.spare, zones.api);
  const css = t.deps.assets.manifest.css;
  return { who, victims, codes, notes, dev, zones, bills, recalc, css };
}

/**
 * Finalized bills of unit_1 (the tenant's) and unit_2 (vacant) of `station` for two months and
 * two bimesters, with station bills.
 */
async function billFixture(t: TestApp, station: number, tenant: number, customer: number) {
  const unit: number[] = [];
  const vacant: number[] = [];
  const cust: number[] = [];
  for (const period of ["2025-01", "2025-02", "2025-03-04", "2025-05-06"]) {
    const when = billPeriod(period);
    const draft = unitBillDraft({
      ...when,
      station_id: station,
      payment_due_date: "2025-12-31",
      finalized_at: "2025-07-01T12:00:00.000Z",
      is_finalized: true,
      tenant_id: tenant,
      sensor_serial: "MX-1A",
    });
    const res = await writeStationBills(
      t.deps.kv,
      station,
      period,
      [fresh(draft), fresh({ ...draft, unit_id: "unit_2", tenant_id: null })],
      fresh(customerBillDraft({
        ...when,
        station_id: station,
        is_finalized: true,
        customer_id: customer,
      })),
      Date.now(),
    );
    assert.ok(res.ok && res.customer);
    unit.push(res.created[0].id);
    vacant.push(res.created[1].id);
    cust.push(res.customer.bill.id);
  }
  // These bills' tenants were told of them already (as a run does): no notice is pending.
  await clearPendingNotices(t.deps.kv, unit);
  return { unit, vacant, customer: cust };
}

/** A draft bill of unit_1 of the spare station for 2024-01 and for 2024-01-02 (no tenant). */
async function recalcFixture(t: TestApp, station: number, zone: number): Promise<number[]> {
  const ids: number[] = [];
  for (const period of ["2024-01", "2024-01-02"]) {
    const draft = unitBillDraft({
      ...billPeriod(period),
      station_id: station,
      payment_due_date: "2024-12-31",
      zone_id: zone,
    });
    const res = await writeStationBills(
      t.deps.kv,
      station,
      period,
      [fresh(draft)],
      null,
      Date.now(),
    );
    assert.ok(res.ok);
    ids.push(res.created[0].id);
  }
  return ids;
}

/** Creates the devices of {@link DeviceFixture} through the API, as the admin. */
async function deviceFixture(t: TestApp, who: Fixture["who"]): Promise<DeviceFixture> {
  const make = async (path: string, json: unknown) => {
    const res = await call(t, "POST", path, { token: who.admin.token, json });
    assert.ok(res.status < 300, `${path}: ${res.status} ${await res.clone().text()}`);
    return (await res.json()).id as number;
  };
  const station = await make("/api/devices", matrixStation("MX-1"));
  const sensor = await make(
    `/api/devices/${station}/sensors`,
    matrixSensor("MX-1A", "unit_1", who.tenant.user.id),
  );
  const spare = await make("/api/devices", matrixStation("MX-2"));
  const spareSensor = await make(`/api/devices/${spare}/sensors`, matrixSensor("MX-2A", "unit_1"));
  const doomedSensor = await make(`/api/devices/${spare}/sensors`, matrixSensor("MX-2B", "unit_2"));
  const empty = await make("/api/devices", matrixStation("MX-3"));
  await make("/api/devices/assign-customer", {
    customer_id: who.customer.user.id,
    station_ids: [station],
  });
  return { station, sensor, spare, spareSensor, doomedSensor, empty };
}

/** Pages carry the session in the cookie, API calls as a bearer token. */
function isApi(path: string): boolean {
  return path.startsWith("/api/") || path.startsWith("/auth/") || path === "/logging";
}

Deno.test("every route answers every role as the authorization matrix says, never 500", async () => {
  const t = await testApp();
  const f = await fixture(t);
  const failures: string[] = [];
  for (const row of ROUTES) {
    const path = row.path ? row.path(f) : row.route!;
    for (const actor of ACTORS) {
      const label = `${row.method} ${path} as ${actor}`;
      const want = row.expect[actor];
      const opts: CallOptions = { ...row.body?.(f, actor) };
      if (actor !== "anonymous") {
        const token = f.who[actor].token;
        if (isApi(path)) opts.token = token;
        else opts.cookie = `token=${token}`;
      }
      const res = await call(t, row.method, path, opts);
      if (res.status >= 500) failures.push(`${label}: answered ${res.status}`);
      if (res.status !== want.status) {
        failures.push(
          `${label}: status ${res.status}, expected ${want.status} ` +
            `(${res.headers.get("location") ?? (await res.clone().text()).slice(0, 120)})`,
        );
      }
      if (want.location !== undefined) {
        const got = res.headers.get("location") ?? "";
        const location = want.location === "login"
          ? `/login?next=${encodeURIComponent(path)}`
          : want.location;
        const ok = location instanceof RegExp ? location.test(got) : got === location;
        if (!ok) failures.push(`${label}: location ${got}, expected ${location}`);
      }
      if (row.check && res.status === want.status && res.status < 300) {
        try {
          await row.check(res, actor, f);
        } catch (e) {
          failures.push(`${label}: ${e instanceof Error ? e.message : e}`);
        }
      }
      if (!res.bodyUsed) await res.body?.cancel();
      if (actor !== "anonymous" && /^\/(auth\/)?logout$/.test(path)) {
        // Signing out ended the actor's sessions: sign in again for the rows that follow.
        const stored = (await getUser(t.deps.kv, f.who[actor].user.id))!;
        f.who[actor].token = (await startSession(t.deps, stored, Date.now())).token;
      }
    }
  }
  const unhandled = t.deps.log.lines.filter((l) => l.message === "unhandled error");
  for (const l of unhandled) failures.push(`unhandled error: ${l.method} ${l.path}: ${l.error}`);
  assert.deepEqual(failures, []);
  t.close();
});

Deno.test("the authorization matrix has a row for every route the app registers", async () => {
  const t = await testApp();
  const registered = new Set(
    t.app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`),
  );
  const rows = new Set(ROUTES.filter((r) => r.route !== null).map((r) => `${r.method} ${r.route}`));
  const missing = [...registered].filter((r) => !rows.has(r));
  const stale = [...rows].filter((r) => !registered.has(r));
  assert.deepEqual(missing, [], `add rows to ROUTES for: ${missing.join(", ")}`);
  assert.deepEqual(stale, [], `rows for routes the app does not have: ${stale.join(", ")}`);
  t.close();
});
