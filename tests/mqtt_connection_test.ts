/**
 * Test MQTT Connection against the embedded broker (its TLS port, with the sensor's
 * certificate from the portal's CA): the JSON API, the form post that comes back to the
 * sensor page, and the reasons it words (refused password, a password from before it was
 * kept, a broker that never answers, none listening).
 */
import assert from "node:assert/strict";
import { probe, storedSensorCertificate } from "../services/devices/mod.ts";
import { sealMqttPassword } from "../services/platform/mqtt_passwords.ts";
import { getDevice, updateDevice } from "../db/devices.ts";
import { account, call, testsWith } from "./_helpers.ts";
import { stationWorld } from "./_station_world.ts";
import { portalTlsBroker } from "./ingest/_helpers.ts";

const test = testsWith(stationWorld, (w) => w.t.close());

/** The station world with the embedded broker running on free loopback ports (TLS on). */
async function withBroker() {
  const w = await stationWorld();
  w.t.deps.config = {
    ...w.t.deps.config,
    mqtt: {
      ...w.t.deps.config.mqtt,
      tlsHosts: ["localhost", "127.0.0.1"],
      requireClientCert: true,
    },
  };
  const broker = await portalTlsBroker(w.t.deps);
  w.t.deps.config.mqtt.port = broker.port;
  w.t.deps.config.mqtt.tlsPort = broker.tlsPort!;
  const api = `/api/devices/${w.stationId}/sensors/${w.sensorId}/test-mqtt-connection`;
  const close = async () => {
    await broker.close();
    w.t.close();
  };
  return { w, broker, api, close };
}

Deno.test("Test MQTT Connection signs in to the embedded broker over TLS as the sensor and reports success", async () => {
  const { w, broker, api, close } = await withBroker();
  try {
    const res = await call(w.t, "POST", api, { token: w.admin.token });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      success: true,
      message:
        `MQTT connection test succeeded: the sensor can sign in to 127.0.0.1:${broker.tlsPort} and use its topics.`,
    });
  } finally {
    await close();
  }
});

Deno.test("Test MQTT Connection reports a refused password in the admin's language", async () => {
  const { w, api, close } = await withBroker();
  try {
    // The broker checks the hash; the sealed copy no longer matches it.
    const sealed = await sealMqttPassword(w.t.deps.secret, "not-the-password");
    await updateDevice(w.t.deps.kv, w.sensorId, (d) => ({ ...d, mqtt_password_sealed: sealed }));
    const spanish = await account(w.t, "admin", { language: "es" });
    const res = await call(w.t, "POST", api, { token: spanish.token });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      success: false,
      message: "La prueba de conexión MQTT falló: el broker rechazó el usuario o la contraseña",
    });
  } finally {
    await close();
  }
});

Deno.test("Test MQTT Connection says plainly that a password from before it was kept must be set again", async () => {
  const { w, api, close } = await withBroker();
  try {
    await updateDevice(w.t.deps.kv, w.sensorId, (d) => {
      const { mqtt_password_sealed: _, ...rest } = d;
      return rest;
    });
    const body = await (await call(w.t, "POST", api, { token: w.admin.token })).json();
    assert.equal(body.success, false);
    assert.match(body.message, /^MQTT Connection test failed: .*set the password again/);
  } finally {
    await close();
  }
});

Deno.test("Test MQTT Connection answers 404 for a sensor that is not the station's", async () => {
  const { w, close } = await withBroker();
  try {
    for (
      const path of [
        `/api/devices/${w.sensorId}/sensors/${w.stationId}`,
        "/api/devices/x/sensors/1",
      ]
    ) {
      const res = await call(w.t, "POST", `${path}/test-mqtt-connection`, { token: w.admin.token });
      assert.equal(res.status, 404);
      assert.equal((await res.json()).message, "Sensor not found");
    }
  } finally {
    await close();
  }
});

Deno.test("the Test MQTT Connection form comes back to the sensor page with the result shown", async () => {
  const { w, close } = await withBroker();
  try {
    const base = `/admin/devices/station/${w.stationId}/sensor/${w.sensorId}`;
    const res = await call(w.t, "POST", `${base}/test-mqtt`, { token: w.admin.token, form: {} });
    assert.equal(res.status, 303);
    const back = res.headers.get("location")!;
    assert.equal(back, `${base}/data?mqtt_test=ok#mqtt-test`);
    const page = await (await call(w.t, "GET", back.replace(/#.*$/, ""), { token: w.admin.token }))
      .text();
    assert.match(
      page,
      /data-testid="mqtt-test-result" data-ok="yes"[^>]*>MQTT connection test succeeded/,
    );
    assert.match(page, new RegExp(`<form[^>]*action="${base}/test-mqtt" method="post"`));

    // A made-up result in the query is not shown.
    const forged = await (await call(w.t, "GET", `${base}/data?mqtt_test=pwned`, {
      token: w.admin.token,
    })).text();
    assert.doesNotMatch(forged, /mqtt-test-result/);
  } finally {
    await close();
  }
});

Deno.test("Test MQTT Connection reports a broker that never answers, and one that does not listen", async () => {
  const { w, close } = await withBroker();
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  try {
    const port = (silent.addr as Deno.NetAddr).port;
    const d = (await getDevice(w.t.deps.kv, w.sensorId))!;
    const target = {
      username: d.config.mqtt.username,
      password: "pw-sim-0123456789",
      prefix: d.config.mqtt.topic_prefix,
      certificate: () => Promise.reject(new Error("not over TLS")),
    };
    w.t.deps.config.mqtt.url = `mqtt://127.0.0.1:${port}`;
    const quiet = await probe(w.t.deps, target, 300);
    assert.equal(quiet.ok, false);
    assert.equal(!quiet.ok && quiet.reason, "timeout");

    silent.close();
    await accepting.catch(() => {});
    for (const c of held) c.close();
    const gone = await probe(w.t.deps, target, 2000);
    assert.equal(!gone.ok && gone.reason, "unreachable");
  } finally {
    try {
      silent.close();
    } catch {
      // closed above
    }
    await close();
  }
});

test("a sensor's MQTT password is kept sealed on its record and never served", async (w) => {
  const stored = (await getDevice(w.t.deps.kv, w.sensorId))!;
  assert.match(stored.mqtt_password_sealed ?? "", /^v1\./);
  assert.ok(!stored.mqtt_password_sealed!.includes("pw-sim-0123456789"));
  for (const path of [`/api/devices/${w.sensorId}`, `/api/devices/${w.stationId}/sensors`]) {
    const text = await (await call(w.t, "GET", path, { token: w.admin.token })).text();
    assert.doesNotMatch(text, /mqtt_password|"v1\.|pw-sim-0123456789/);
  }
});

test("deleting a sensor forgets its client certificate", async (w) => {
  const files = await call(w.t, "GET", `/api/devices/${w.sensorId}/certificates/cert`, {
    token: w.admin.token,
  });
  assert.equal(files.status, 200);
  await files.body?.cancel();
  assert.notEqual(await storedSensorCertificate(w.t.deps, w.sensorId), null);
  const res = await call(w.t, "DELETE", `/api/devices/${w.stationId}/sensors/${w.sensorId}`, {
    token: w.admin.token,
  });
  assert.equal(res.status, 200);
  assert.equal(await storedSensorCertificate(w.t.deps, w.sensorId), null);
});
