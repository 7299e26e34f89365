/**
 * Demo data so that every role can be tried at once: a customer, a tenant and unused
 * access codes for each role. Idempotent: running it again adds nothing.
 */
import type { Deps } from "./deps.ts";
import { createUser, findUserByEmail, listUsers, publicUser } from "../db/users.ts";
import { seedDemoDevices } from "./demo_devices.ts";
import type { User } from "../core/types.ts";
import { hashPassword } from "./platform/passwords.ts";
import { createAccessCode, listAccessCodes } from "../db/access_codes.ts";
import { generateCode } from "./access_codes.ts";
import { createNotification } from "../db/notifications.ts";
import { messageOf, TelemetryUnavailableError } from "../db/telemetry/mod.ts";
import { isDiskFull } from "./refusal.ts";

/** The demo accounts' password (printed by the demo task). */
export const DEMO_PASSWORD = "demo1234";

/** What the demo seeded, to print. */
interface DemoSummary {
  accounts: { email: string; role: string; password: string }[];
  codes: { code: string; role: string }[];
  /** Serials of the demo station's simulated meters. */
  meters: string[];
}

/** The demo could not be seeded: the message says why (a full disk, a failing store). */
export class DemoSeedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "DemoSeedError";
  }
}

/**
 * Seeds the demo data once; a storage failure rejects with a {@link DemoSeedError} saying
 * what failed (what was seeded before stays, and a later run completes it).
 */
export async function seedDemo(deps: Deps): Promise<DemoSummary> {
  try {
    return await seed(deps);
  } catch (e) {
    const why = isDiskFull(e)
      ? "the disk is full"
      : e instanceof TelemetryUnavailableError
      ? "the telemetry store is failing"
      : null;
    if (why === null) throw e;
    throw new DemoSeedError(
      `The demo data could not be seeded: ${why} (${messageOf(e)}). Free some space or fix ` +
        "the store, then start the demo again.",
      { cause: e },
    );
  }
}

async function seed(deps: Deps): Promise<DemoSummary> {
  const now = deps.now();
  const accounts = [
    {
      email: "cliente@demo.mx",
      full_name: "Carmen Ortega Ruiz",
      role: "customer" as const,
      phone: "+525512345678",
      company_name: "Inmobiliaria Ortega",
      tax_id: "OERC800101AB1",
    },
    {
      email: "inquilino@demo.mx",
      full_name: "Luis Hernández Soto",
      role: "user" as const,
      phone: "+525587654321",
    },
  ];
  for (const a of accounts) {
    if (await findUserByEmail(deps.kv, a.email)) continue;
    const user = await createUser(deps.kv, {
      ...a,
      password_hash: await hashPassword(DEMO_PASSWORD),
    }, now);
    await createNotification(deps.kv, {
      user_id: user.id,
      type: "bill_created",
      priority: "medium",
      title: "",
      message: "",
      params: {
        title_key: "notifications.demo.welcome_title",
        message_key: "notifications.demo.welcome_message",
      },
    }, now);
  }
  let codes = (await listAccessCodes(deps.kv)).filter((c) => !c.is_used);
  for (const role of ["user", "user", "customer"] as const) {
    if (codes.filter((c) => c.role === role).length >= (role === "user" ? 2 : 1)) continue;
    await createAccessCode(deps.kv, {
      code: await generateCode(deps),
      role,
      notes: "Demo",
      assignments: { stations: [], units: [] },
    }, now);
    codes = (await listAccessCodes(deps.kv)).filter((c) => !c.is_used);
  }
  // The demo station is created by the first admin (main.ts makes one before seeding).
  const admin = (await listUsers(deps.kv, "admin"))[0];
  const meters = admin
    ? await seedDemoDevices(
      deps,
      publicUser(admin),
      await publicOf(deps, accounts[0].email),
      await publicOf(deps, accounts[1].email),
    )
    : [];
  return {
    meters,
    accounts: accounts.map((a) => ({ email: a.email, role: a.role, password: DEMO_PASSWORD })),
    codes: codes.map((c) => ({ code: c.code, role: c.role })),
  };
}

async function publicOf(deps: Deps, email: string): Promise<User | null> {
  const u = await findUserByEmail(deps.kv, email);
  return u ? publicUser(u) : null;
}
