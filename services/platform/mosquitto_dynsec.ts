/**
 * A small client of Mosquitto's dynamic-security plugin: JSON commands published to
 * `$CONTROL/dynamic-security/v1`, answers read from `$CONTROL/dynamic-security/v1/response`
 * and matched to their command by `correlationData`. The commands the portal needs are
 * built by the functions below (the formats of the plugin's README); {@link openDynsec}
 * signs in with the plugin's admin account and runs batches of them with a time limit.
 */
import type { MqttClient } from "mqtt";
import { type ClientTls, connectOnce, endClient, subscribeGranted } from "./mqtt_connect.ts";

/** Where commands are published. */
const DYNSEC_TOPIC = "$CONTROL/dynamic-security/v1";
/** Where the plugin answers. */
const DYNSEC_RESPONSE_TOPIC = `${DYNSEC_TOPIC}/response`;

/** One command of the plugin. */
export interface DynsecCommand {
  command: string;
  [field: string]: unknown;
}

/** One answer of the plugin; `error` is set when the command failed. */
export interface DynsecResponse {
  command: string;
  error?: string;
  data?: unknown;
  correlationData?: string;
}

/** An ACL of a role. */
interface DynsecAcl {
  acltype:
    | "publishClientSend"
    | "publishClientReceive"
    | "subscribeLiteral"
    | "subscribePattern"
    | "unsubscribeLiteral"
    | "unsubscribePattern";
  topic: string;
  priority: number;
  allow: boolean;
}

/** Why talking to the plugin failed. */
type DynsecFailure = "unreachable" | "refused" | "timeout" | "command";

/** A failure of the plugin or of the way to it; `kind` says which, the message says what. */
export class DynsecError extends Error {
  override name = "DynsecError";
  constructor(
    readonly kind: DynsecFailure,
    message: string,
    readonly command?: string,
  ) {
    super(message);
  }
}

// ---- commands --------------------------------------------------------------------------------

/** The ACLs of a device's role: publish, and subscribe by pattern or literally, under `{prefix}/#` only. */
export function deviceAcls(prefix: string): DynsecAcl[] {
  if (!prefix || /[#+]/.test(prefix) || prefix.endsWith("/")) {
    throw new RangeError(`a device topic prefix must be a plain topic, got "${prefix}"`);
  }
  const topic = `${prefix}/#`;
  return [
    { acltype: "publishClientSend", topic, priority: 0, allow: true },
    { acltype: "subscribePattern", topic, priority: 0, allow: true },
    { acltype: "subscribeLiteral", topic, priority: 0, allow: true },
  ];
}

/** createClient: an account with a password, a text name and roles. */
export function createClientCommand(
  username: string,
  password: string,
  textname: string,
  roles: readonly string[] = [],
): DynsecCommand {
  return {
    command: "createClient",
    username,
    password,
    textname,
    roles: roles.map((rolename) => ({ rolename, priority: -1 })),
  };
}

/** createRole with its ACLs. */
export function createRoleCommand(rolename: string, acls: readonly DynsecAcl[]): DynsecCommand {
  return { command: "createRole", rolename, acls: acls.map((a) => ({ ...a })) };
}

/** addClientRole. */
export function addClientRoleCommand(username: string, rolename: string): DynsecCommand {
  return { command: "addClientRole", username, rolename, priority: -1 };
}

/** modifyClient: a new password, and when given the text name and the roles (replacing them). */
export function modifyClientCommand(
  username: string,
  password: string,
  more: { textname?: string; roles?: readonly string[] } = {},
): DynsecCommand {
  return {
    command: "modifyClient",
    username,
    password,
    ...(more.textname === undefined ? {} : { textname: more.textname }),
    ...(more.roles === undefined
      ? {}
      : { roles: more.roles.map((rolename) => ({ rolename, priority: -1 })) }),
  };
}

/** removeClientRole: takes `rolename` off the client (before the role is deleted). */
export function removeClientRoleCommand(username: string, rolename: string): DynsecCommand {
  return { command: "removeClientRole", username, rolename };
}

/** getClient. */
export function getClientCommand(username: string): DynsecCommand {
  return { command: "getClient", username };
}

/** deleteClient (the plugin also disconnects clients signed in with it). */
export function deleteClientCommand(username: string): DynsecCommand {
  return { command: "deleteClient", username };
}

/** deleteRole. */
export function deleteRoleCommand(rolename: string): DynsecCommand {
  return { command: "deleteRole", rolename };
}

// ---- the wire format -------------------------------------------------------------------------

/** The message of a batch: each command gets `correlationData` `<batch>-<index>`. */
export function encodeCommands(commands: readonly DynsecCommand[], batch: string): string {
  return JSON.stringify({
    commands: commands.map((c, i) => ({ ...c, correlationData: `${batch}-${i}` })),
  });
}

/** The answers in a response message; throws a TypeError when it is not one. */
export function decodeResponses(payload: string | Uint8Array): DynsecResponse[] {
  const text = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new TypeError(`dynamic-security response is not JSON: ${text.slice(0, 120)}`);
  }
  const list = (body as { responses?: unknown } | null)?.responses;
  if (!Array.isArray(list)) {
    throw new TypeError(`dynamic-security response has no "responses" list: ${text.slice(0, 120)}`);
  }
  return list.filter((r): r is DynsecResponse =>
    typeof r === "object" && r !== null && typeof (r as DynsecResponse).command === "string"
  ).map((r) => ({
    command: r.command,
    ...(typeof r.error === "string" ? { error: r.error } : {}),
    ...(r.data === undefined ? {} : { data: r.data }),
    ...(typeof r.correlationData === "string" ? { correlationData: r.correlationData } : {}),
  }));
}

/**
 * Files answers of batch `batch` into `slots` by their `correlationData` index; answers of
 * other batches are ignored. Answers how many slots are filled.
 */
export function fileResponses(
  batch: string,
  responses: readonly DynsecResponse[],
  slots: (DynsecResponse | undefined)[],
): number {
  for (const r of responses) {
    const m = r.correlationData?.startsWith(`${batch}-`)
      ? /^(\d+)$/.exec(r.correlationData.slice(batch.length + 1))
      : null;
    const i = m ? Number(m[1]) : -1;
    if (i >= 0 && i < slots.length && !slots[i]) slots[i] = r;
  }
  return slots.filter(Boolean).length;
}

/** Throws a DynsecError for the first failed answer whose error `tolerated` does not accept. */
export function requireSuccess(
  responses: readonly DynsecResponse[],
  tolerated: (r: DynsecResponse) => boolean = () => false,
): void {
  for (const r of responses) {
    if (r.error !== undefined && !tolerated(r)) {
      throw new DynsecError("command", `${r.command}: ${r.error}`, r.command);
    }
  }
}

/** True for the plugin's "Client not found" and "Role not found" answers. */
export const isNotFound = (r: DynsecResponse) => /not found/i.test(r.error ?? "");

// ---- the session -----------------------------------------------------------------------------

/** How to reach the plugin. */
interface DynsecOptions {
  url: string;
  username: string;
  password: string;
  tls?: ClientTls;
  /** Limit of the connection and of each batch; default 5 s. */
  timeoutMs?: number;
}

/** A signed-in admin session. */
interface DynsecSession {
  /** Runs commands as one message; answers their responses in order. */
  run(commands: readonly DynsecCommand[]): Promise<DynsecResponse[]>;
  close(): Promise<void>;
}

/** Signs in to the broker as the plugin's admin and subscribes to the answers. */
export async function openDynsec(o: DynsecOptions): Promise<DynsecSession> {
  const timeoutMs = o.timeoutMs ?? 5_000;
  const tag = crypto.randomUUID().slice(0, 8);
  const res = await connectOnce({
    url: o.url,
    username: o.username,
    password: o.password,
    clientId: `portal-dynsec-${tag}`,
    tls: o.tls,
    timeoutMs,
  });
  if (!res.ok) {
    const kind = res.reason === "timeout"
      ? "timeout"
      : res.reason === "unreachable"
      ? "unreachable"
      : "refused";
    throw new DynsecError(kind, `cannot sign in to the broker as ${o.username}: ${res.detail}`);
  }
  const client: MqttClient = res.client;
  const listeners = new Set<(r: DynsecResponse[]) => void>();
  client.on("message", (topic, payload) => {
    if (topic !== DYNSEC_RESPONSE_TOPIC) return;
    let responses: DynsecResponse[];
    try {
      responses = decodeResponses(payload);
    } catch {
      return;
    }
    for (const l of listeners) l(responses);
  });
  try {
    if (!(await subscribeGranted(client, DYNSEC_RESPONSE_TOPIC))) {
      throw new DynsecError(
        "refused",
        `${o.username} may not read ${DYNSEC_RESPONSE_TOPIC}: it needs the dynamic-security admin role`,
      );
    }
  } catch (e) {
    await endClient(client);
    throw e instanceof DynsecError ? e : new DynsecError("unreachable", String(e));
  }
  let batches = 0;
  return {
    async run(commands) {
      if (commands.length === 0) return [];
      const batch = `${tag}${++batches}`;
      const slots: (DynsecResponse | undefined)[] = new Array(commands.length).fill(undefined);
      let listener!: (r: DynsecResponse[]) => void;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = new Promise<void>((resolve, reject) => {
        listener = (r) => {
          if (fileResponses(batch, r, slots) === slots.length) resolve();
        };
        timer = setTimeout(() => {
          const missing = commands.filter((_, i) => !slots[i]).map((c) => c.command);
          reject(
            new DynsecError(
              "timeout",
              `the dynamic-security plugin did not answer ${
                missing.join(", ")
              } within ${timeoutMs} ms (is the plugin loaded?)`,
              missing[0],
            ),
          );
        }, timeoutMs);
      });
      listeners.add(listener);
      try {
        // A broker that went away never acknowledges the publish: the timeout still ends it.
        await Promise.race([
          client.publishAsync(DYNSEC_TOPIC, encodeCommands(commands, batch), { qos: 1 }),
          done,
        ]);
        await done;
      } finally {
        clearTimeout(timer);
        listeners.delete(listener);
      }
      return slots as DynsecResponse[];
    },
    close: () => endClient(client),
  };
}
