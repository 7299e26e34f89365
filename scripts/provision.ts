/**
 * `deno task provision`: with `MQTT_DYNSEC=on`, creates or updates every station's and
 * sensor's account and role in Mosquitto's dynamic-security plugin from what the portal
 * stores (for devices made before dynamic security was on, or a broker whose accounts were
 * lost). Prints one line per device and a summary; exits 0 when every device is provisioned,
 * 1 when some could not be (their reasons are listed), 2 for a bad configuration.
 */
import { createLogger } from "../services/platform/log.ts";
import { dynsecEnabled, syncDeviceAccounts } from "../services/devices/mod.ts";
import { scriptConfig } from "./_deps.ts";
import { openStores } from "../services/platform/stores.ts";

async function main(): Promise<number> {
  const enc = new TextEncoder();
  const out = (l: string) => Deno.stdout.writeSync(enc.encode(l + "\n"));
  const err = (l: string) => Deno.stderr.writeSync(enc.encode(l + "\n"));
  const config = scriptConfig(err);
  if (!config) return 2;
  const opened = await openStores(config, createLogger(config.logLevel));
  try {
    const { deps } = opened;
    if (!dynsecEnabled(deps)) {
      err("MQTT_DYNSEC is off: there are no broker accounts to provision (see README).");
      return 2;
    }
    const t = deps.i18n.t("en");
    const result = await syncDeviceAccounts(
      deps,
      (id, key) => out(`device ${id}: ${key === null ? "provisioned" : t(key)}`),
    );
    out(`provisioned: ${result.provisioned.length}`);
    out(`password to set again: ${result.needs_password.length}`);
    for (const f of result.needs_password) out(`  ${f.id} ${f.name} (${f.username})`);
    out(`failed: ${result.failed.length}`);
    for (const f of result.failed) out(`  ${f.id} ${f.name} (${f.username}): ${t(f.key)}`);
    return result.needs_password.length + result.failed.length > 0 ? 1 : 0;
  } finally {
    await opened.close();
  }
}

if (import.meta.main) Deno.exit(await main());
