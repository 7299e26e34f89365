/**
 * Device accounts on an external Mosquitto (MQTT_DYNSEC=on): each station and sensor is a
 * dynamic-security client named by its MQTT username, with its own role
 * `portal-device-<id>` that may publish and subscribe under the device's topic prefix only.
 * Accounts the portal made carry the text name `portal-device-<id>`; an account of the same
 * username that the portal did not make is never changed or deleted.
 *
 * The admin connection uses MQTT_URL with MQTT_USERNAME/MQTT_PASSWORD; over TLS it trusts
 * the portal's CA and presents a client certificate the CA issues for the portal itself.
 */
import type { Deps } from "../deps.ts";
import type { ClientTls } from "../platform/mqtt_connect.ts";
import type { CertificateAuthority, IssuedCertificate } from "../platform/pki.ts";
import {
  createClientCommand,
  createRoleCommand,
  deleteClientCommand,
  deleteRoleCommand,
  deviceAcls,
  type DynsecCommand,
  DynsecError,
  type DynsecResponse,
  getClientCommand,
  isNotFound,
  modifyClientCommand,
  openDynsec,
  removeClientRoleCommand,
  requireSuccess,
} from "../platform/mosquitto_dynsec.ts";

/** The account a device should have on the broker. */
interface DeviceAccount {
  id: number;
  username: string;
  password: string;
  /** Topic prefix without the trailing slash (`sensor/abc123`). */
  prefix: string;
}

/** Locale keys of provisioning failures, by kind. */
export const PROVISIONING_KEYS = {
  unreachable: "mqtt_test.provisioning.unreachable",
  refused: "mqtt_test.provisioning.refused",
  timeout: "mqtt_test.provisioning.timeout",
  command: "mqtt_test.provisioning.command",
  username_in_use: "mqtt_test.provisioning.username_in_use",
  password_missing: "mqtt_test.provisioning.password_missing",
} as const;

/** Thrown when a device's username belongs to a broker account the portal did not make. */
class ForeignAccountError extends DynsecError {
  constructor(username: string) {
    super("command", `the broker account "${username}" was not made by the portal`);
  }
}

/** Whether device accounts are kept in Mosquitto's dynamic-security plugin. */
export function dynsecEnabled(deps: Deps): boolean {
  const m = deps.config.mqtt;
  return m.dynsec && m.url !== null && m.username !== null && m.password !== null;
}

/** The role of device `id`. */
const deviceRoleName = (id: number) => `portal-device-${id}`;

/** The locale key of a provisioning failure. */
export function provisioningKey(error: unknown): string {
  if (error instanceof ForeignAccountError) return PROVISIONING_KEYS.username_in_use;
  if (error instanceof DynsecError) return PROVISIONING_KEYS[error.kind];
  return PROVISIONING_KEYS.command;
}

const portalCerts = new WeakMap<CertificateAuthority, Promise<IssuedCertificate>>();

/** Whether `url` is MQTT over TLS. */
export const isTlsUrl = (url: string) => /^(mqtts|tls|ssl):/.test(url);

/** TLS of the portal's own broker connections: the CA, and the portal's client certificate. */
export async function portalTls(deps: Deps): Promise<ClientTls> {
  let cert = portalCerts.get(deps.pki);
  if (!cert) {
    cert = deps.pki.issueClient("energy-portal");
    portalCerts.set(deps.pki, cert);
    cert.catch(() => portalCerts.delete(deps.pki));
  }
  const c = await cert;
  return { ca: deps.pki.caPem, cert: c.cert_pem, key: c.key_pem };
}

/** Runs `work` in an admin session of the plugin. */
async function withSession<T>(
  deps: Deps,
  work: (run: (commands: readonly DynsecCommand[]) => Promise<DynsecResponse[]>) => Promise<T>,
): Promise<T> {
  const m = deps.config.mqtt;
  const session = await openDynsec({
    url: m.url!,
    username: m.username!,
    password: m.password!,
    tls: isTlsUrl(m.url!) ? await portalTls(deps) : undefined,
  });
  try {
    return await work((commands) => session.run(commands));
  } finally {
    await session.close();
  }
}

/** "mine", "absent" or "foreign", from a getClient answer. */
function ownership(r: DynsecResponse, id: number): "mine" | "absent" | "foreign" {
  if (r.error !== undefined) {
    if (isNotFound(r)) return "absent";
    throw new DynsecError("command", `${r.command}: ${r.error}`, r.command);
  }
  const textname = (r.data as { client?: { textname?: unknown } } | undefined)?.client?.textname;
  return textname === deviceRoleName(id) ? "mine" : "foreign";
}

/**
 * Makes the broker's account of device `a.id` match `a`: removes the account of its former
 * username (when it changed), rewrites its role for the prefix, and creates or updates
 * the account with the password and the role. Throws a {@link DynsecError} on failure.
 */
export async function provisionDevice(
  deps: Deps,
  a: DeviceAccount,
  formerUsername: string | null = null,
): Promise<void> {
  if (a.username === deps.config.mqtt.username) throw new ForeignAccountError(a.username);
  const role = deviceRoleName(a.id);
  const acls = deviceAcls(a.prefix);
  await withSession(deps, async (run) => {
    const former = formerUsername && formerUsername !== a.username ? formerUsername : null;
    const [cur, old] = await run([
      getClientCommand(a.username),
      ...(former ? [getClientCommand(former)] : []),
    ]);
    const state = ownership(cur, a.id);
    if (state === "foreign") throw new ForeignAccountError(a.username);
    const dropOld = old && ownership(old, a.id) === "mine";
    // The role is taken off its client before it is deleted and made again: Mosquitto 2.0
    // stops (crashes) when a role still held by a client is deleted and then modified.
    const answers = await run([
      ...(dropOld ? [deleteClientCommand(former!)] : []),
      ...(state === "mine" ? [removeClientRoleCommand(a.username, role)] : []),
      deleteRoleCommand(role),
      createRoleCommand(role, acls),
      state === "mine"
        ? modifyClientCommand(a.username, a.password, { textname: role, roles: [role] })
        : createClientCommand(a.username, a.password, role, [role]),
    ]);
    requireSuccess(
      answers,
      (r) => (r.command.startsWith("delete") || r.command === "removeClientRole") && isNotFound(r),
    );
  });
}

/**
 * Removes device `id`'s account (when the portal made it) and its role; an account or role
 * already gone is fine. Throws a {@link DynsecError} when the broker cannot be told.
 */
export async function unprovisionDevice(deps: Deps, id: number, username: string): Promise<void> {
  await withSession(deps, async (run) => {
    const [cur] = await run([getClientCommand(username)]);
    const mine = ownership(cur, id) === "mine";
    const answers = await run([
      ...(mine ? [deleteClientCommand(username)] : []),
      deleteRoleCommand(deviceRoleName(id)),
    ]);
    requireSuccess(answers, isNotFound);
  });
}
