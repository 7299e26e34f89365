/** Test helpers: a real app on an in-memory Deno KV, accounts, and requests. */
import assert from "node:assert/strict";
import { createApp } from "../routes/mod.ts";
import type { AppDeps } from "../routes/_deps.ts";
import { loadConfig } from "../services/platform/config.ts";
import { loadI18n } from "../services/platform/i18n.ts";
import { loadAssets } from "../components/assets.ts";
import { memoryLogger } from "../services/platform/log.ts";
import { DEFAULT_THROTTLE } from "../db/throttle.ts";
import { createUser, type StoredUser } from "../db/users.ts";
import { hashPassword } from "../services/platform/passwords.ts";
import type { Role } from "../core/roles.ts";
import { issueToken } from "../services/platform/tokens.ts";
import { openSqliteStore } from "../db/telemetry/sqlite.ts";
import { createAccessCode } from "../db/access_codes.ts";
import type { AccessCode, Assignments } from "../core/types.ts";
import { type CertificateAuthority, openCertificateAuthority } from "../services/platform/pki.ts";

/** A test app with its deps; close it at the end of the test. */
export interface TestApp {
  deps: AppDeps & { log: ReturnType<typeof memoryLogger> };
  app: ReturnType<typeof createApp>;
  close(): void;
}

let sharedCa: Promise<CertificateAuthority> | null = null;

/** The in-memory certificate authority of this test process (created once, then reused). */
export function testCa(): Promise<CertificateAuthority> {
  sharedCa ??= openCertificateAuthority(null);
  return sharedCa;
}

/** Builds the real app on `:memory:` KV with the real locales and build output. */
export async function testApp(overrides: Partial<AppDeps> = {}): Promise<TestApp> {
  const kv = await Deno.openKv(":memory:");
  const telemetry = openSqliteStore(":memory:");
  const deps = {
    kv,
    config: loadConfig({ DATA_DIR: "/nonexistent" }),
    i18n: await loadI18n(),
    assets: await loadAssets(),
    secret: "test-secret-test-secret-test-secret-0123",
    now: Date.now,
    log: memoryLogger(),
    throttle: DEFAULT_THROTTLE,
    telemetry,
    pki: await testCa(),
    ...overrides,
  } as TestApp["deps"];
  return {
    deps,
    app: createApp(deps),
    close: () => {
      kv.close();
      telemetry.close();
    },
  };
}

let counter = 0;

/**
 * Creates an account directly in the store (with the phone, company, tax id and assignments of
 * `extra`, if any) and returns it with a bearer token.
 */
export async function account(
  t: TestApp,
  role: Role,
  extra: Partial<StoredUser> & { password?: string } = {},
): Promise<{ user: StoredUser; token: string; password: string }> {
  const password = extra.password ?? "secret123";
  const user = await createUser(t.deps.kv, {
    email: extra.email ?? `${role}${++counter}@test.mx`,
    full_name: extra.full_name ?? `Test ${role} ${counter}`,
    role,
    is_active: extra.is_active ?? true,
    language: extra.language ?? "en",
    phone: extra.phone,
    company_name: extra.company_name,
    tax_id: extra.tax_id,
    assignments: extra.assignments,
    password_hash: await hashPassword(password),
  }, Date.now());
  const token = await issueToken(t.deps.secret, user, Date.now(), 3600);
  return { user, token, password };
}

/**
 * Runs `fn` with a fresh app and the bearer token of an admin (with the account fields
 * `admin`), closing the app however `fn` ends.
 */
export async function withAdminApp(
  fn: (t: TestApp, token: string) => Promise<void>,
  admin: Partial<StoredUser> = {},
): Promise<void> {
  const t = await testApp();
  try {
    const { token } = await account(t, "admin", admin);
    await fn(t, token);
  } finally {
    t.close();
  }
}

/**
 * `Deno.test` for a file whose tests each start from a fresh `open()`: the returned function
 * registers a test that receives it and `close`s it however the test ends.
 */
export function testsWith<W>(open: () => Promise<W>, close: (w: W) => void | Promise<void>) {
  return (name: string, fn: (w: W) => void | Promise<void>) =>
    Deno.test(name, async () => {
      const w = await open();
      try {
        await fn(w);
      } finally {
        await close(w);
      }
    });
}

/** `Deno.test` with a fresh app, closed however the test ends. */
export const appTest = testsWith(() => testApp(), (t) => t.close());

/** `Deno.test` with a fresh app and an admin account in it, closed however the test ends. */
export const adminTest = testsWith(async () => {
  const t = await testApp();
  return { t, admin: await account(t, "admin") };
}, (w) => w.t.close());

/** Options of {@link call}. */
export interface CallOptions {
  token?: string;
  cookie?: string;
  json?: unknown;
  /** A body sent as `application/json` as it is (malformed JSON). */
  jsonText?: string;
  form?: Record<string, string | string[]>;
  body?: string;
  headers?: Record<string, string>;
  /** Origin header; defaults to the app's own for unsafe requests. */
  origin?: string | null;
}

/** Sends a request to the app (no network). */
export function call(t: TestApp, method: string, path: string, o: CallOptions = {}) {
  const headers: Record<string, string> = { ...o.headers };
  if (o.token) headers.authorization = `Bearer ${o.token}`;
  if (o.cookie) headers.cookie = o.cookie;
  let body: string | undefined = o.body;
  if (o.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(o.json);
  } else if (o.jsonText !== undefined) {
    headers["content-type"] = "application/json";
    body = o.jsonText;
  } else if (o.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries(o.form)) {
      for (const one of Array.isArray(v) ? v : [v]) p.append(k, one);
    }
    body = p.toString();
  }
  if (!["GET", "HEAD"].includes(method) && o.origin !== null && !headers.origin) {
    headers.origin = o.origin ?? "http://localhost";
  }
  headers.host ??= "localhost";
  return t.app.request(`http://localhost${path}`, { method, headers, body });
}

/** An account as {@link account} answers it. */
export type TestAccount = Awaited<ReturnType<typeof account>>;

/**
 * `PUT /api/users/profile` as `me` with their own e-mail and name, no phone, English and their
 * current password; `change` sets or adds any field.
 */
export function putProfile(t: TestApp, me: TestAccount, change: Record<string, unknown> = {}) {
  return call(t, "PUT", "/api/users/profile", {
    token: me.token,
    json: {
      email: me.user.email,
      full_name: me.user.full_name,
      phone: "",
      language: "en",
      current_password: me.password,
      ...change,
    },
  });
}

/** The `name=value` of a Set-Cookie header for `name`, or null. */
export function cookieFrom(res: Response, name: string): string | null {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    if (pair.startsWith(`${name}=`)) return pair;
  }
  return null;
}

/** Posts `json` to `path` as the bearer of `token`, asserts 201 Created and answers the new id. */
export async function created(t: TestApp, token: string, path: string, json: unknown) {
  const res = await call(t, "POST", path, { token, json });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).id as number;
}

/** Asserts 201 Created with none of `secrets` anywhere in the answer; answers its JSON. */
export async function createdWithout(res: Response, secrets: string[]) {
  assert.equal(res.status, 201);
  const text = await res.text();
  for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} in ${text}`);
  return JSON.parse(text);
}

/**
 * GETs each path of `fields` as the bearer of `token` and asserts a 400 whose `errors` names
 * the field given for that path with a message.
 */
export async function refusedQueries(t: TestApp, token: string, fields: Record<string, string>) {
  for (const [path, field] of Object.entries(fields)) {
    const res = await call(t, "GET", path, { token });
    assert.equal(res.status, 400, path);
    const body = await res.json();
    assert.equal(typeof body.errors?.[field], "string", `${path}: ${JSON.stringify(body)}`);
  }
}

/** An MQTT account of a device in a request body. */
export interface MqttAccount {
  username: string;
  password: string;
}

/** What {@link stationBody} needs. */
export interface StationFixture {
  name: string;
  serial: string;
  /** `station_id`: the serial in lower case unless given. */
  stationId?: string;
  zoneId?: number | null;
  /** The city of its location in Nuevo León, México: Monterrey unless given. */
  city?: string;
  mqtt: MqttAccount;
  /** The units; all on the station's one SSR. */
  units: { id: string; name?: string }[];
}

/** The body of `POST /api/devices` for a station whose units use one SSR on GPIO 0. */
export function stationBody(s: StationFixture) {
  return {
    name: s.name,
    location: JSON.stringify({
      city: s.city ?? "Monterrey",
      state: "Nuevo León",
      country: "México",
    }),
    serial_number: s.serial,
    station_id: s.stationId ?? s.serial.toLowerCase(),
    zone_id: s.zoneId ?? null,
    type: "station",
    config: {
      mqtt: s.mqtt,
      station: {
        ssrs: [{ id: "ssr_1", name: "SSR 1", type: "normal", gpio_pin: 0 }],
        units: s.units.map((u) => ({ ...u, ssr_id: "ssr_1" })),
      },
    },
  };
}

/** The units `unit_1`…`unit_n` (no names). */
export const unitIds = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `unit_${i + 1}` }));

/** What {@link sensorBody} needs; the name is `Medidor <serial>` unless given. */
export interface SensorFixture {
  serial: string;
  name?: string;
  unit: string;
  tenant?: number | null;
  mqtt: MqttAccount;
  ip?: string;
}

/** The body of `POST /api/devices/{station}/sensors` for a meter of `unit`. */
export function sensorBody(s: SensorFixture) {
  return {
    name: s.name ?? `Medidor ${s.serial}`,
    serial_number: s.serial,
    type: "sensor",
    config: {
      mqtt: s.mqtt,
      sensor: { unit_id: s.unit, tenant_id: s.tenant ?? null, ip_address: s.ip ?? "10.0.0.5" },
    },
  };
}

/** Creates the station of `s` through the API as the bearer of `token`; answers its id. */
export function postStation(t: TestApp, token: string, s: StationFixture): Promise<number> {
  return created(t, token, "/api/devices", stationBody(s));
}

/** Creates the sensor of `s` on `station` through the API; answers its id. */
export function postSensor(
  t: TestApp,
  token: string,
  station: number,
  s: SensorFixture,
): Promise<number> {
  return created(t, token, `/api/devices/${station}/sensors`, sensorBody(s));
}

/** Stores the access code `code` for `role`, with `notes` and no assignments unless given. */
export function seedAccessCode(
  kv: Deno.Kv,
  code: string,
  role: "customer" | "user",
  o: { notes?: string; assignments?: Partial<Assignments> } = {},
): Promise<AccessCode> {
  const assignments = { stations: [], units: [], ...o.assignments };
  return createAccessCode(kv, { code, role, notes: o.notes ?? "", assignments }, Date.now());
}

/**
 * A short body of `POST /api/zones` (the rest takes the defaults): a flat residential MXN zone
 * billed monthly with base tariff 50, tax 16 %, commission 10 %, fee 25 and customer tax 16 %;
 * `over` sets or adds any field.
 */
export function zoneBody(over: Record<string, unknown> = {}) {
  return {
    name: "Zona Norte",
    currency: "MXN",
    tariff_type: "residential",
    billing_type: "monthly",
    enable_levels: false,
    seasonal_tariff: false,
    industrial_tariff: false,
    base_tariff: 50,
    tax_percentage: 16,
    customer_commission: 10,
    customer_fee: 25,
    customer_tax: 16,
    ...over,
  };
}

/** Asserts that `text` holds each of `expected`, naming one that is missing (and `context`). */
export function assertIncludesAll(text: string, expected: readonly string[], context = ""): void {
  for (const e of expected) assert.ok(text.includes(e), `missing "${e}"${context}`);
}

/** The field errors of an answer, checked to be a 400 (`message` names the case on failure). */
export async function fieldErrorsOf(
  res: Response,
  message?: string,
): Promise<Record<string, string>> {
  assert.equal(res.status, 400, message ?? `answered ${res.status}, not 400`);
  return (await res.json()).errors;
}
