/**
 * `deno task reset-admin [email]`: gives an admin (the first, or the one with `email`) a new
 * password, ADMIN_PASSWORD when set or a generated one printed once, and ends its sessions.
 * Exits 0, 1 when there is no such admin or the password is refused, 2 for a bad configuration.
 */
import { printOut, runWithStores } from "./_deps.ts";
import { resetAdminPassword } from "../services/password_reset.ts";
import { Refusal } from "../services/refusal.ts";

function main(): Promise<number> {
  return runWithStores(async (deps) => {
    const email = Deno.args.find((a) => !a.startsWith("-"))?.trim().toLowerCase() ?? null;
    try {
      const done = await resetAdminPassword(deps, email, deps.config.adminPassword);
      if (!done) {
        printOut(email ? `no admin with the e-mail ${email}` : "no admin account yet");
        return 1;
      }
      printOut(`password of ${done.email} reset; every session of the account ended`);
      if (!deps.config.adminPassword) printOut(`  new password (shown once): ${done.password}`);
      return 0;
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      printOut(`ADMIN_PASSWORD refused: ${deps.i18n.t("en")(Object.values(e.fields)[0] ?? e.key)}`);
      return 1;
    }
  });
}

if (import.meta.main) Deno.exit(await main());
