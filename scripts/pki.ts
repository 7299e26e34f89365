/**
 * `deno task pki`: certificates from the portal's own CA (kept in `DATA_DIR`) for an external
 * broker, such as Mosquitto with `scripts/mosquitto.conf`.
 *
 * - `deno task pki server --host broker.example.com[,10.0.0.5] --out DIR [--days 397]` writes
 *   `DIR/portal-ca.pem` (the CA, for the broker's `cafile`), `DIR/broker.pem` (a server
 *   certificate for those names and addresses, `certfile`) and `DIR/broker.key` (its key,
 *   mode 0600, `keyfile`).
 * - `deno task pki ca --out DIR` writes only `DIR/portal-ca.pem`.
 *
 * Exits 0 when written, 2 for a bad command line or configuration.
 */
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../services/platform/config.ts";
import { CertificateAuthorityError, openCertificateAuthority } from "../services/platform/pki.ts";

const USAGE = "usage: deno task pki server --host NAME[,NAME...] --out DIR [--days N]\n" +
  "       deno task pki ca --out DIR";

/** A parsed command line. */
interface PkiArgs {
  command: "server" | "ca";
  hosts: string[];
  out: string;
  days: number;
}

/** Parses the arguments; throws TypeError with the usage for a bad command line. */
export function parsePkiArgs(args: string[]): PkiArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        host: { type: "string" },
        out: { type: "string" },
        days: { type: "string", default: "397" },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    throw new TypeError(`${(e as Error).message}\n${USAGE}`);
  }
  const [command, ...rest] = parsed.positionals;
  if ((command !== "server" && command !== "ca") || rest.length > 0) {
    throw new TypeError(`give the command "server" or "ca"\n${USAGE}`);
  }
  const out = parsed.values.out?.trim();
  if (!out) throw new TypeError(`--out is required\n${USAGE}`);
  const hosts = (parsed.values.host ?? "").split(",").map((h) => h.trim()).filter(Boolean);
  if (command === "server" && hosts.length === 0) {
    throw new TypeError(`--host is required for a server certificate\n${USAGE}`);
  }
  const bad = hosts.find((h) => !/^[A-Za-z0-9.:-]{1,253}$/.test(h));
  if (bad !== undefined) throw new TypeError(`not a host name or address: ${bad}\n${USAGE}`);
  const days = Number(parsed.values.days);
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new TypeError(`--days must be a whole number from 1 to 3650, saw ${parsed.values.days}`);
  }
  return { command, hosts, out, days };
}

async function main(): Promise<number> {
  const err = (line: string) => Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
  const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
  let args: PkiArgs;
  try {
    args = parsePkiArgs(Deno.args);
  } catch (e) {
    err((e as Error).message);
    return 2;
  }
  let ca;
  try {
    const config = loadConfig(Deno.env.toObject());
    await Deno.mkdir(config.dataDir, { recursive: true });
    ca = await openCertificateAuthority(config.dataDir);
  } catch (e) {
    if (e instanceof ConfigError || e instanceof CertificateAuthorityError) {
      err(e.message);
      return 2;
    }
    throw e;
  }
  await Deno.mkdir(args.out, { recursive: true });
  await Deno.writeTextFile(`${args.out}/portal-ca.pem`, ca.caPem);
  out(`${args.out}/portal-ca.pem`);
  if (args.command === "server") {
    const server = await ca.issueServer(args.hosts, args.days);
    await Deno.writeTextFile(`${args.out}/broker.pem`, server.cert_pem);
    await Deno.writeTextFile(`${args.out}/broker.key`, server.key_pem, { mode: 0o600 });
    await Deno.chmod(`${args.out}/broker.key`, 0o600);
    out(
      `${args.out}/broker.pem (${args.hosts.join(", ")}, until ${
        new Date(server.not_after).toISOString().slice(0, 10)
      }, SHA-256 ${server.fingerprint})`,
    );
    out(`${args.out}/broker.key`);
  }
  return 0;
}

if (import.meta.main) Deno.exit(await main());
