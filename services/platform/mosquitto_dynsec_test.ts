import assert from "node:assert/strict";
import {
  addClientRoleCommand,
  createClientCommand,
  createRoleCommand,
  decodeResponses,
  deleteClientCommand,
  deleteRoleCommand,
  deviceAcls,
  DynsecError,
  type DynsecResponse,
  encodeCommands,
  fileResponses,
  isNotFound,
  modifyClientCommand,
  openDynsec,
  removeClientRoleCommand,
  requireSuccess,
} from "./mosquitto_dynsec.ts";

Deno.test("deviceAcls() allows publishing and subscribing under the prefix only", () => {
  assert.deepEqual(deviceAcls("sensor/abc123"), [
    { acltype: "publishClientSend", topic: "sensor/abc123/#", priority: 0, allow: true },
    { acltype: "subscribePattern", topic: "sensor/abc123/#", priority: 0, allow: true },
    { acltype: "subscribeLiteral", topic: "sensor/abc123/#", priority: 0, allow: true },
  ]);
  for (const bad of ["", "sensor/#", "sensor/+", "sensor/abc/"]) {
    assert.throws(() => deviceAcls(bad), RangeError, bad);
  }
});

Deno.test("encodeCommands() sends the plugin's command formats with a correlation per command", () => {
  const text = encodeCommands([
    createRoleCommand("portal-device-7", deviceAcls("sensor/abc")),
    createClientCommand("meter-abc", "pw-1", "portal-device-7", ["portal-device-7"]),
    addClientRoleCommand("meter-abc", "portal-device-7"),
    modifyClientCommand("meter-abc", "pw-2"),
    modifyClientCommand("meter-abc", "pw-3", { textname: "t", roles: ["r"] }),
    deleteClientCommand("meter-abc"),
    deleteRoleCommand("portal-device-7"),
    removeClientRoleCommand("meter-abc", "portal-device-7"),
  ], "b1");
  assert.deepEqual(JSON.parse(text), {
    commands: [
      {
        command: "createRole",
        rolename: "portal-device-7",
        acls: deviceAcls("sensor/abc"),
        correlationData: "b1-0",
      },
      {
        command: "createClient",
        username: "meter-abc",
        password: "pw-1",
        textname: "portal-device-7",
        roles: [{ rolename: "portal-device-7", priority: -1 }],
        correlationData: "b1-1",
      },
      {
        command: "addClientRole",
        username: "meter-abc",
        rolename: "portal-device-7",
        priority: -1,
        correlationData: "b1-2",
      },
      { command: "modifyClient", username: "meter-abc", password: "pw-2", correlationData: "b1-3" },
      {
        command: "modifyClient",
        username: "meter-abc",
        password: "pw-3",
        textname: "t",
        roles: [{ rolename: "r", priority: -1 }],
        correlationData: "b1-4",
      },
      { command: "deleteClient", username: "meter-abc", correlationData: "b1-5" },
      { command: "deleteRole", rolename: "portal-device-7", correlationData: "b1-6" },
      {
        command: "removeClientRole",
        username: "meter-abc",
        rolename: "portal-device-7",
        correlationData: "b1-7",
      },
    ],
  });
});

Deno.test("decodeResponses() reads the plugin's answers and refuses what is not one", () => {
  const answer = JSON.stringify({
    responses: [
      { command: "createRole", correlationData: "b1-0" },
      { command: "createClient", error: "Client already exists", correlationData: "b1-1" },
      { command: "getClient", data: { client: { username: "u" } }, correlationData: "b1-2" },
      { nothing: true },
    ],
  });
  assert.deepEqual(decodeResponses(new TextEncoder().encode(answer)), [
    { command: "createRole", correlationData: "b1-0" },
    { command: "createClient", error: "Client already exists", correlationData: "b1-1" },
    { command: "getClient", data: { client: { username: "u" } }, correlationData: "b1-2" },
  ]);
  assert.throws(() => decodeResponses("not json"), TypeError);
  assert.throws(() => decodeResponses("{}"), /no "responses" list/);
});

Deno.test("fileResponses() matches answers to their commands by correlation, ignoring other batches", () => {
  const slots: (DynsecResponse | undefined)[] = [undefined, undefined];
  assert.equal(
    fileResponses("b2", [
      { command: "deleteRole", correlationData: "b1-1" },
      { command: "createRole", correlationData: "b2-1" },
      { command: "stray" },
      { command: "x", correlationData: "b2-9" },
    ], slots),
    1,
  );
  assert.deepEqual(slots, [undefined, { command: "createRole", correlationData: "b2-1" }]);
  assert.equal(fileResponses("b2", [{ command: "getClient", correlationData: "b2-0" }], slots), 2);
});

Deno.test("requireSuccess() throws the first error that is not tolerated", () => {
  const answers = [
    { command: "deleteClient", error: "Client not found" },
    { command: "createClient", error: "Client already exists" },
  ];
  requireSuccess(answers.slice(0, 1), isNotFound);
  assert.throws(
    () => requireSuccess(answers, isNotFound),
    (e: unknown) =>
      e instanceof DynsecError && e.kind === "command" && e.command === "createClient" &&
      e.message === "createClient: Client already exists",
  );
});

Deno.test("openDynsec() says the broker cannot be reached when nothing listens", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  await assert.rejects(
    openDynsec({ url: `mqtt://127.0.0.1:${port}`, username: "a", password: "b", timeoutMs: 2000 }),
    (e: unknown) => e instanceof DynsecError && e.kind === "unreachable",
  );
});
