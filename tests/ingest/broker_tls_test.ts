/**
 * The embedded broker's MQTT over TLS, with real mqtt.js clients on loopback: a sensor's
 * certificate files downloaded from the API connect and publish under its prefix; when
 * client certificates are required, a client without one or with one from another CA is
 * refused during the TLS handshake; the server certificate verifies against user_ca.pem.
 */
import assert from "node:assert/strict";
import mqtt from "mqtt";
import { connect as tlsConnect } from "node:tls";
import { X509Certificate } from "node:crypto";
import { openCertificateAuthority } from "../../services/platform/pki.ts";
import { call } from "../_helpers.ts";
import { stationWorld } from "../_station_world.ts";
import { INGEST_CREDENTIALS, portalTlsBroker, waitFor } from "./_helpers.ts";

async function download(
  w: Awaited<ReturnType<typeof stationWorld>>,
  file: "ca" | "cert" | "key",
): Promise<string> {
  const res = await call(w.t, "GET", `/api/devices/${w.sensorId}/certificates/${file}`, {
    token: w.admin.token,
  });
  assert.equal(res.status, 200);
  return await res.text();
}

async function setup(requireClientCert: boolean) {
  const w = await stationWorld();
  w.t.deps.config = {
    ...w.t.deps.config,
    mqtt: {
      ...w.t.deps.config.mqtt,
      tlsPort: 8883,
      tlsHosts: ["localhost", "127.0.0.1"],
      requireClientCert,
    },
  };
  const broker = await portalTlsBroker(w.t.deps);
  const files = {
    ca: await download(w, "ca"),
    cert: await download(w, "cert"),
    key: await download(w, "key"),
  };
  const close = async () => {
    await broker.close();
    w.t.close();
  };
  return { w, broker, files, close };
}

const sensorLogin = { username: "sim0001", password: "pw-sim-0123456789" };

/**
 * Connects over TLS; rejects when the broker refuses (a CONNACK error, or the TLS layer
 * closing the connection, which mqtt.js reports only as a close).
 */
function connectTls(url: string, options: mqtt.IClientOptions): Promise<mqtt.MqttClient> {
  const client = mqtt.connect(url, {
    reconnectPeriod: 0,
    connectTimeout: 3_000,
    rejectUnauthorized: true,
    ...sensorLogin,
    ...options,
  });
  return new Promise((resolve, reject) => {
    // A refused handshake may leave the socket hanging: not connected in 10 s is refused too.
    const timer = setTimeout(() => fail(new Error("no CONNACK within 10 s")), 10_000);
    const fail = (why: Error) => {
      clearTimeout(timer);
      client.end(true);
      reject(why);
    };
    client.once("connect", () => {
      clearTimeout(timer);
      resolve(client);
    });
    client.once("error", fail);
    client.once("close", () => fail(new Error("connection closed before CONNACK")));
  });
}

Deno.test("MQTT over TLS: a sensor's downloaded certificate and CA connect and publish under its prefix", async () => {
  const { broker, files, close } = await setup(true);
  const ingest = await mqtt.connectAsync(broker.url, {
    ...INGEST_CREDENTIALS,
    clientId: "ingest-tls",
    reconnectPeriod: 0,
  });
  try {
    const received: string[] = [];
    ingest.on("message", (topic, payload) => received.push(`${topic} ${payload}`));
    await ingest.subscribeAsync("sensor/#", { qos: 1 });
    assert.match(broker.tlsUrl!, /^mqtts:\/\/127\.0\.0\.1:\d+$/);
    const device = await connectTls(broker.tlsUrl!, {
      ca: files.ca,
      cert: files.cert,
      key: files.key,
      clientId: "sim0001",
    });
    try {
      await device.publishAsync("sensor/sim0001/events/rpc", "hello", { qos: 1 });
      await waitFor(
        () => received.includes("sensor/sim0001/events/rpc hello"),
        "the publish over TLS reaches the ingest client",
      );
    } finally {
      await device.endAsync();
    }
  } finally {
    await ingest.endAsync();
    await close();
  }
});

/** Asserts that the broker refuses a TLS client connecting with `options`: none is left in. */
async function assertRefused(
  broker: Awaited<ReturnType<typeof portalTlsBroker>>,
  options: mqtt.IClientOptions,
) {
  await assert.rejects(connectTls(broker.tlsUrl!, options));
  assert.equal(broker.clients(), 0);
}

Deno.test("MQTT over TLS: without a client certificate a client is refused when one is required", async () => {
  const { broker, files, close } = await setup(true);
  try {
    await assertRefused(broker, { ca: files.ca, clientId: "no-cert" });
  } finally {
    await close();
  }
});

Deno.test("MQTT over TLS: a client certificate from another CA is refused", async () => {
  const { broker, files, close } = await setup(true);
  try {
    const other = await openCertificateAuthority(null);
    const foreign = await other.issueClient("sim0001");
    await assertRefused(broker, {
      ca: files.ca,
      cert: foreign.cert_pem,
      key: foreign.key_pem,
      clientId: "foreign",
    });
  } finally {
    await close();
  }
});

Deno.test("MQTT over TLS: without the requirement a client without certificate signs in with its password", async () => {
  const { broker, files, close } = await setup(false);
  try {
    const device = await connectTls(broker.tlsUrl!, { ca: files.ca, clientId: "sim0001" });
    assert.equal(device.connected, true);
    await device.endAsync();
  } finally {
    await close();
  }
});

Deno.test("MQTT over TLS: the server certificate verifies against user_ca.pem and names 127.0.0.1", async () => {
  const { broker, files, close } = await setup(false);
  try {
    const peer = await new Promise<X509Certificate>((resolve, reject) => {
      const socket = tlsConnect({
        host: "127.0.0.1",
        port: broker.tlsPort!,
        ca: [files.ca],
        rejectUnauthorized: true,
      }, () => {
        const cert = socket.getPeerX509Certificate();
        socket.end();
        cert ? resolve(cert) : reject(new Error("no peer certificate"));
      });
      socket.once("error", reject);
    });
    assert.ok(peer.verify(new X509Certificate(files.ca).publicKey));
    assert.equal(peer.checkIP("127.0.0.1"), "127.0.0.1");
    assert.equal(peer.checkHost("localhost"), "localhost");
  } finally {
    await close();
  }
});

Deno.test("MQTT over TLS: a device with its client certificate gets in while its username is being guessed", async () => {
  const { broker, files, close } = await setup(true);
  let stop = false;
  // Wrong passwords for the device's username, over plain MQTT from the device's own address.
  const guesser = async () => {
    while (!stop) {
      const c = mqtt.connect(broker.url, {
        username: sensorLogin.username,
        password: "wrong",
        reconnectPeriod: 0,
        connectTimeout: 10_000,
      });
      await new Promise<void>((resolve) => {
        c.once("connect", () => resolve());
        c.once("error", () => resolve());
        c.once("close", () => resolve());
      });
      c.end(true);
    }
  };
  const guessers = Array.from({ length: 5 }, guesser);
  try {
    await new Promise((r) => setTimeout(r, 1_500));
    for (let i = 0; i < 5; i++) {
      const device = await connectTls(broker.tlsUrl!, {
        ca: files.ca,
        cert: files.cert,
        key: files.key,
        clientId: "sim0001",
        connectTimeout: 2_000,
      });
      await device.endAsync();
    }
  } finally {
    stop = true;
    await Promise.all(guessers);
    await close();
  }
});
