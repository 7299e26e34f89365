import assert from "node:assert/strict";
import mqtt from "mqtt";
import { startEmbeddedBroker } from "../../ingest/broker.ts";
import { INGEST_CREDENTIALS, MemoryDirectory, testSensor, waitFor } from "./_helpers.ts";

const A = testSensor("ACL-A");
const B = testSensor("ACL-B");

async function setup() {
  const directory = new MemoryDirectory([A, B]);
  const broker = await startEmbeddedBroker({
    port: 0,
    hostname: "127.0.0.1",
    directory,
    ingestCredentials: INGEST_CREDENTIALS,
  });
  const received: string[] = [];
  const ingest = await mqtt.connectAsync(broker.url, {
    ...INGEST_CREDENTIALS,
    clientId: "ingest-acl",
    reconnectPeriod: 0,
  });
  ingest.on("message", (topic) => received.push(topic));
  return { directory, broker, ingest, received };
}

function connectAs(url: string, options: mqtt.IClientOptions) {
  return mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 2_000, ...options });
}

/** `Deno.test` with a fresh {@link setup}, its ingest client and broker closed however it ends. */
function brokerTest(name: string, fn: (w: Awaited<ReturnType<typeof setup>>) => Promise<void>) {
  Deno.test(name, async () => {
    const w = await setup();
    try {
      await fn(w);
    } finally {
      await w.ingest.endAsync();
      await w.broker.close();
    }
  });
}

brokerTest(
  "embedded broker: the ingest client may subscribe to everything",
  async ({ ingest }) => {
    const granted = await ingest.subscribeAsync(["sensor/+/#", "station/+/#", "#"], { qos: 1 });
    assert.deepEqual(granted.map((g) => g.qos), [1, 1, 1]);
  },
);

brokerTest(
  "embedded broker: wrong, missing or unknown credentials are refused",
  async ({ broker, directory }) => {
    for (
      const options of [
        { username: A.username, password: "wrong" },
        { username: "nobody", password: A.password },
        { username: INGEST_CREDENTIALS.username, password: "wrong" },
        {},
      ]
    ) {
      await assert.rejects(
        connectAs(broker.url, options),
        /Bad username or password|Not authorized/,
        JSON.stringify(options),
      );
    }
    directory.failWith = new Error("kv down");
    await assert.rejects(
      connectAs(broker.url, { username: A.username, password: A.password }),
      /Server unavailable/,
    );
    directory.failWith = null;
    const ok = await connectAs(broker.url, { username: A.username, password: A.password });
    assert.equal(ok.connected, true);
    await ok.endAsync();
  },
);

brokerTest(
  "embedded broker: a device publishes only under its own prefix",
  async ({ broker, ingest, received }) => {
    await ingest.subscribeAsync("#", { qos: 1 });
    const own = await connectAs(broker.url, { username: A.username, password: A.password });
    await own.publishAsync(`${A.prefix}/status/em:0`, "{}", { qos: 1 });
    await waitFor(() => received.includes(`${A.prefix}/status/em:0`), "own prefix delivered");
    await own.endAsync();

    for (const topic of [`${B.prefix}/status/em:0`, "station/ACL-A/online", "other/x", A.prefix]) {
      const device = await connectAs(broker.url, { username: A.username, password: A.password });
      const closed = new Promise<void>((resolve) => device.once("close", () => resolve()));
      device.publish(topic, "{}", { qos: 1 });
      await closed;
      await device.endAsync(true);
    }
    // One more message on the own prefix proves the refused ones are not just late.
    const again = await connectAs(broker.url, { username: A.username, password: A.password });
    await again.publishAsync(`${A.prefix}/online`, "true", { qos: 1 });
    await waitFor(() => received.includes(`${A.prefix}/online`), "own prefix again");
    await again.endAsync();
    assert.deepEqual(received.filter((t) => !t.startsWith("$SYS")), [
      `${A.prefix}/status/em:0`,
      `${A.prefix}/online`,
    ]);
  },
);

brokerTest("embedded broker: a device subscribes only under its own prefix", async ({ broker }) => {
  const device = await connectAs(broker.url, { username: A.username, password: A.password });
  try {
    for (const own of [`${A.prefix}/rpc`, `${A.prefix}/#`]) {
      const granted = await device.subscribeAsync(own, { qos: 1 });
      assert.equal(granted[0].qos, 1, own);
    }
    for (const other of [`${B.prefix}/#`, "sensor/+/#", "#", "$SYS/#", "$share/g/sensor/+/#"]) {
      // The broker answers 0x80 (failure), which mqtt.js turns into an error.
      await assert.rejects(device.subscribeAsync(other, { qos: 1 }), /Subscribe error/, other);
    }
    assert.equal(device.connected, true, "a refused subscription does not disconnect");
  } finally {
    await device.endAsync();
  }
});

brokerTest(
  "embedded broker: a device cannot take over the ingest client's id",
  async ({ broker, ingest }) => {
    await assert.rejects(
      connectAs(broker.url, {
        clientId: "ingest-acl",
        username: A.username,
        password: A.password,
      }),
      /Identifier rejected/,
    );
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(ingest.connected, true, "ingest kept its connection");
  },
);
