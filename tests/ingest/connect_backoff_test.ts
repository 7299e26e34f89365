/**
 * Backoff of failed CONNECTs on the embedded broker (issue 16, item 7): guesses against one
 * username queue up behind a delay that grows with each failure (in parallel too), the right
 * password still gets in after the wait, and the backoff's memory stays bounded.
 */
import assert from "node:assert/strict";
import mqtt from "mqtt";
import { createConnection } from "node:net";
import { ConnectBackoff, USERNAME_BACKOFF } from "../../ingest/connect_backoff.ts";
import { embeddedBroker, MemoryDirectory, testSensor } from "./_helpers.ts";

const A = testSensor("BACKOFF-A");

/**
 * Wrong-password CONNECTs for `username` checked (refused as a bad password, not as busy)
 * within `ms`, `parallel` at a time.
 */
async function guesses(url: string, username: string, ms: number, parallel: number) {
  const end = performance.now() + ms;
  let answered = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const c = mqtt.connect(url, {
        username,
        password: "wrong",
        reconnectPeriod: 0,
        connectTimeout: ms,
      });
      const checked = await new Promise<boolean>((resolve) => {
        c.once("error", (e) => resolve(/Bad username or password/.test(e.message)));
        c.once("connect", () => resolve(true));
        c.once("close", () => resolve(false));
      });
      c.end(true);
      if (checked && performance.now() < end) answered++;
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return answered;
}

Deno.test("embedded broker: guesses against one username are slowed down, the device still gets in", async () => {
  const broker = await embeddedBroker(new MemoryDirectory([A]));
  try {
    const answered = await guesses(broker.url, A.username, 3_000, 10);
    // Without backoff this is hundreds; with it: 3 free ones, then turns 0.25, 0.5, 1, 2 s apart.
    assert.ok(answered <= 12, `${answered} guesses answered in 3 s`);
    // The right password: refused as busy while turns are far away, then let in.
    const started = performance.now();
    let ok: mqtt.MqttClient | null = null;
    while (!ok && performance.now() - started < 30_000) {
      ok = await mqtt.connectAsync(broker.url, {
        username: A.username,
        password: A.password,
        reconnectPeriod: 0,
        connectTimeout: 20_000,
      }).catch((e) => {
        assert.match(e.message, /Server unavailable/);
        return new Promise<null>((r) => setTimeout(() => r(null), 1_000));
      });
    }
    assert.ok(ok?.connected, "the device got in");
    await ok.endAsync();
  } finally {
    await broker.close();
  }
});

Deno.test("connect backoff: turns grow, a success clears them, memory is bounded", () => {
  const b = new ConnectBackoff({ ...USERNAME_BACKOFF, maxKeys: 100 });
  for (let i = 0; i < 3; i++) {
    assert.equal(b.reserve("u", 0), 0);
    b.fail("u", 0);
  }
  b.fail("u", 0); // 4th failure: turns 250 ms apart
  assert.equal(b.reserve("u", 0), 0);
  assert.equal(b.reserve("u", 0), 250);
  assert.equal(b.reserve("u", 0), 500);
  b.fail("u", 0); // 5th: 500 ms apart
  assert.equal(b.reserve("u", 0), 750);
  assert.equal(b.reserve("u", 0), 1250);
  for (let i = 0; i < 20; i++) b.fail("u", 0); // 10 s apart: the next turn is too far away
  assert.equal(b.reserve("u", 0), 1750);
  assert.equal(b.reserve("u", 0), null);
  b.succeed("u");
  assert.equal(b.reserve("u", 0), 0);
  for (let i = 0; i < 10_000; i++) b.fail(`name-${i}`, i);
  assert.equal(b.size, 100);
  // Forgotten after a quiet while.
  for (let i = 0; i < 10; i++) b.fail("v", 0);
  assert.equal(b.reserve("v", 1), 0);
  assert.ok((b.reserve("v", 2) ?? 0) > 0);
  assert.equal(b.reserve("v", USERNAME_BACKOFF.forgetMs + 10), 0);
});

/** A CONNECT from `localAddress` (a loopback address of its own); resolves when answered. */
function connectFrom(url: string, localAddress: string, o: mqtt.IClientOptions) {
  const { hostname, port } = new URL(url);
  const client = new mqtt.MqttClient(
    () => createConnection({ host: hostname, port: Number(port), localAddress }),
    { reconnectPeriod: 0, ...o },
  );
  return new Promise<boolean>((resolve) => {
    client.once("connect", () => resolve(true));
    client.once("error", () => resolve(false));
    client.once("close", () => resolve(false));
  }).finally(() => client.end(true));
}

Deno.test("embedded broker: wrong CONNECTs for a meter's username from another address do not hold the meter back", async () => {
  const broker = await embeddedBroker(new MemoryDirectory([A]));
  let stop = false;
  const guesser = async () => {
    while (!stop) {
      await connectFrom(broker.url, "127.0.0.2", {
        username: A.username,
        password: "wrong",
        connectTimeout: 10_000,
      });
    }
  };
  const guessers = Array.from({ length: 5 }, guesser);
  try {
    await new Promise((r) => setTimeout(r, 1_500));
    const got: boolean[] = [];
    for (let i = 0; i < 10; i++) {
      got.push(
        await connectFrom(broker.url, "127.0.0.1", {
          username: A.username,
          password: A.password,
          clientId: `meter-${i}`,
          connectTimeout: 2_000,
        }),
      );
    }
    assert.deepEqual(got, Array(10).fill(true));
  } finally {
    stop = true;
    await Promise.all(guessers);
    await broker.close();
  }
});
