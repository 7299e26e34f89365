/**
 * The embedded broker's packet cap (issue 16, item 7): a device publishing 512 KB (over the
 * 64 KB default) is closed promptly with a logged reason, reconnects at once and then
 * publishes normally.
 */
import assert from "node:assert/strict";
import mqtt from "mqtt";
import { startEmbeddedBroker } from "../../ingest/broker.ts";
import { memoryLogger } from "../../services/platform/log.ts";
import { INGEST_CREDENTIALS, MemoryDirectory, testSensor, waitFor } from "./_helpers.ts";
import { packetSizer } from "../../ingest/packet_guard.ts";

const A = testSensor("BIG-A");

Deno.test("embedded broker: a 512 KB publish closes the connection at once, the device reconnects and publishes", async () => {
  const log = memoryLogger();
  const broker = await startEmbeddedBroker({
    port: 0,
    hostname: "127.0.0.1",
    directory: new MemoryDirectory([A]),
    ingestCredentials: INGEST_CREDENTIALS,
    log,
  });
  const received: string[] = [];
  const ingest = await mqtt.connectAsync(broker.url, {
    ...INGEST_CREDENTIALS,
    clientId: "ingest-big",
    reconnectPeriod: 0,
  });
  ingest.on("message", (_topic, payload) => received.push(payload.toString()));
  await ingest.subscribeAsync("sensor/#", { qos: 1 });
  const device = await mqtt.connectAsync(broker.url, {
    username: A.username,
    password: A.password,
    clientId: "big-device",
    reconnectPeriod: 100,
  });
  try {
    const topic = `${A.prefix}/events/rpc`;
    const closed = new Promise<number>((r) => device.once("close", () => r(performance.now())));
    const started = performance.now();
    // QoS 0: the client library would resend a QoS 1 message after reconnecting.
    device.publish(topic, Buffer.alloc(512 * 1024, 0x61), { qos: 0 });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const at = await Promise.race([
      closed,
      new Promise<number>((r) => timer = setTimeout(() => r(Infinity), 5_000)),
    ]);
    clearTimeout(timer);
    assert.ok(at - started < 2_000, `closed after ${Math.round(at - started)} ms`);
    assert.ok(
      log.lines.some((e) => /oversized packet/.test(String(e.message))),
      "the reason is logged",
    );
    await waitFor(() => device.connected, "the device reconnects");
    await device.publishAsync(topic, "small", { qos: 1 });
    await waitFor(() => received.includes("small"), "the small publish arrives");
    assert.ok(!received.some((m) => m.length > 64 * 1024));
  } finally {
    await device.endAsync(true);
    await ingest.endAsync();
    await broker.close();
  }
});

Deno.test("packet sizer: follows MQTT framing across chunks and flags the first packet over the cap", () => {
  const feed = packetSizer(200);
  // PUBLISH of 130 remaining bytes (length 0x82 0x01), split across chunks.
  assert.equal(feed(new Uint8Array([0x30, 0x82])), 0);
  assert.equal(feed(new Uint8Array([0x01, ...new Array(100).fill(1)])), 0);
  assert.equal(feed(new Uint8Array(30).fill(1)), 0);
  assert.equal(feed(new Uint8Array([0xc0, 0x00])), 0); // PINGREQ
  // 300 bytes announced: over the cap before any body byte.
  assert.equal(feed(new Uint8Array([0x30, 0xac, 0x02])), 303);
});
