/**
 * `deno task provision`: with `MQTT_DYNSEC=on`, creates or updates every station's and
 * sensor's account and role in Mosquitto's dynamic-security plugin from what the portal
 * stores (for devices made before dynamic security was on, or a broker whose accounts were
 * lost). Prints one line per device and a summary; exits 0 when every device is provisioned,
 * 1 when some could not be (their reasons are listed), 2 for a bad configuration.
 */
import { dynsecEnabled, syncDeviceAccounts } from "../services/devices/mod.ts";
import { printErr, printOut, runWithStores } from "./_deps.ts";

function main(): Promise<number> {
  return runWithStores(async (deps) => {
    if (!dynsecEnabled(deps)) {
      printErr("MQTT_DYNSEC is off: there are no broker accounts to provision (see README).");
      return 2;
    }
    const t = deps.i18n.t("en");
    const result = await syncDeviceAccounts(
      deps,
      (id, key) => printOut(`device ${id}: ${key === null ? "provisioned" : t(key)}`),
    );
    printOut(`provisioned: ${result.provisioned.length}`);
    printOut(`password to set again: ${result.needs_password.length}`);
    for (const f of result.needs_password) printOut(`  ${f.id} ${f.name} (${f.username})`);
    printOut(`failed: ${result.failed.length}`);
    for (const f of result.failed) printOut(`  ${f.id} ${f.name} (${f.username}): ${t(f.key)}`);
    return result.needs_password.length + result.failed.length > 0 ? 1 : 0;
  });
}

if (import.meta.main) Deno.exit(await main());
