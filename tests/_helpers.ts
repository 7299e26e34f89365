/** Test helpers: a real app on an in-memory Deno KV, accounts, and requests. */
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

/** Creates an account directly in the store and returns it with a bearer token. */
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
export function testsWith<W>(open: () => Promise<W>, close: (w: W) => void) {
  return (name: string, fn: (w: W) => Promise<void>) =>
    Deno.test(name, async () => {
      const w = await open();
      try {
        await fn(w);
      } finally {
        close(w);
      }
    });
}

/** Options of {@link call}. */
export interface CallOptions {
  token?: string;
  cookie?: string;
  json?: unknown;
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

/** The `name=value` of a Set-Cookie header for `name`, or null. */
export function cookieFrom(res: Response, name: string): string | null {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    if (pair.startsWith(`${name}=`)) return pair;
  }
  return null;
}
