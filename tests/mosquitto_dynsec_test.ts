/**
 * The portal against a real Mosquitto with TLS, client certificates and the
 * dynamic-security plugin (MQTT_DYNSEC=on): device accounts follow the portal's creates,
 * edits and deletes, and Test MQTT Connection reports what the broker says.
 */
import assert from "node:assert/strict";
import type { MqttClient } from "mqtt";
import {
  account,
  call,
  postStation,
  sensorBody,
  type TestApp,
  testApp,
  testCa,
  unitIds,
} from "./_helpers.ts";
import {
  attempt,
  download,
  outcomeOf,
  type SecureMosquitto,
  startSecureMosquitto,
} from "./_mosquitto_dynsec.ts";
import { loadConfig } from "../services/platform/config.ts";
import { openCertificateAuthority } from "../services/platform/pki.ts";
import { portalTls, probe } from "../services/devices/mod.ts";
import {
  deleteClientCommand,
  DynsecError,
  getClientCommand,
  openDynsec,
} from "../services/platform/mosquitto_dynsec.ts";
import { startMosquitto } from "./_mosquitto.ts";

const ADMIN = { username: "portal-admin", password: "admin-pass-0123456789" };

/** A portal whose devices live in the broker at `url`, with an admin token. */
async function portal(url: string) {
  const config = loadConfig({
    DATA_DIR: "/nonexistent",
    MQTT_URL: url,
    MQTT_USERNAME: ADMIN.username,
    MQTT_PASSWORD: ADMIN.password,
    MQTT_DYNSEC: "on",
    INGEST: "off",
  });
  const t = await testApp({ config });
  const admin = await account(t, "admin");
  const station = await postStation(t, admin.token, {
    name: "Dynsec station",
    serial: "STDYN1",
    stationId: "st_dyn1",
    mqtt: { username: "station-dyn1", password: "station-pass-1" },
    units: unitIds(2),
  });
  return { t, token: admin.token, station };
}

/** Creates a sensor through the API; answers its id. */
async function addSensor(
  p: { t: TestApp; token: string; station: number },
  serial: string,
  username: string,
  password: string,
  unit = "unit_1",
): Promise<Response> {
  return await call(p.t, "POST", `/api/devices/${p.station}/sensors`, {
    token: p.token,
    json: sensorBody({ name: `Meter ${serial}`, serial, unit, mqtt: { username, password } }),
  });
}

/** Runs `fn` with a secure Mosquitto and a portal that manages its accounts; closes both. */
async function withDynsecPortal(
  fn: (p: Awaited<ReturnType<typeof portal>>, broker: SecureMosquitto) => Promise<void>,
) {
  const broker = await startSecureMosquitto(await testCa(), ADMIN);
  const p = await portal(broker.url);
  try {
    await fn(p, broker);
  } finally {
    p.t.close();
    await broker.close();
  }
}

async function end(client: MqttClient) {
  await client.endAsync(true);
}

/** Test MQTT Connection through the API. */
async function testConnection(p: { t: TestApp; token: string; station: number }, sensor: number) {
  const res = await call(
    p.t,
    "POST",
    `/api/devices/${p.station}/sensors/${sensor}/test-mqtt-connection`,
    { token: p.token },
  );
  assert.equal(res.status, 200);
  return (await res.json()) as { success: boolean; message: string };
}

Deno.test("a sensor made in the portal signs in to Mosquitto and publishes under its prefix only", () =>
  withDynsecPortal(async (p, broker) => {
    const watcher = await attempt(broker.url, { ...ADMIN, ...(await portalTls(p.t.deps)) });
    try {
      const res = await addSensor(p, "ABC123", "meter-abc123", "meter-pass-1");
      assert.equal(res.status, 201, await res.clone().text());
      const sensor = (await res.json()).id as number;
      const files = await download(p, sensor);

      assert.equal(watcher.outcome, "connected", await broker.log());
      const seen: string[] = [];
      watcher.client.on("message", (topic) => seen.push(topic));
      await watcher.client.subscribeAsync("#", { qos: 1 });

      const device = await attempt(broker.url, {
        username: "meter-abc123",
        password: "meter-pass-1",
        ...files,
      });
      assert.equal(device.outcome, "connected", await broker.log());
      await assert.rejects(
        device.client.subscribeAsync("sensor/other/#", { qos: 1 }),
        (e: Error & { packet?: { granted?: number[] } }) => {
          assert.deepEqual(e.packet?.granted, [128], "SUBACK refuses outside the prefix");
          return true;
        },
      );
      const own = await device.client.subscribeAsync("sensor/abc123/rpc", { qos: 1 });
      assert.deepEqual(own.map((g) => g.qos), [1], "subscribing inside the prefix is granted");
      await device.client.publishAsync("sensor/other/status/em:0", "{}", { qos: 1 });
      await device.client.publishAsync("station/STDYN1/status", "{}", { qos: 1 });
      await device.client.publishAsync("sensor/abc123/status/em:0", "{}", { qos: 1 });
      const deadline = Date.now() + 5_000;
      while (!seen.includes("sensor/abc123/status/em:0") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.deepEqual(seen, ["sensor/abc123/status/em:0"]);
      await end(device.client);

      const ok = await testConnection(p, sensor);
      assert.equal(ok.success, true, ok.message);
      assert.match(ok.message, /succeeded/);
    } finally {
      await end(watcher.client);
    }
  }));

Deno.test("a sensor deleted in the portal can no longer sign in to Mosquitto (not authorized)", () =>
  withDynsecPortal(async (p, broker) => {
    const sensor = (await (await addSensor(p, "DEL001", "meter-del001", "meter-pass-2")).json())
      .id as number;
    const files = await download(p, sensor);
    const creds = { username: "meter-del001", password: "meter-pass-2", ...files };
    assert.equal(await outcomeOf(broker.url, creds), "connected");

    const res = await call(p.t, "DELETE", `/api/devices/${p.station}/sensors/${sensor}`, {
      token: p.token,
    });
    assert.equal(res.status, 200);
    assert.equal(await outcomeOf(broker.url, creds), 5, "CONNACK 5: not authorized");
  }));

Deno.test("Mosquitto refuses a certificate of another CA at the TLS handshake", () =>
  withDynsecPortal(async (p, broker) => {
    const sensor = (await (await addSensor(p, "CA0001", "meter-ca0001", "meter-pass-3")).json())
      .id as number;
    const files = await download(p, sensor);
    const stranger = await (await openCertificateAuthority(null)).issueClient("meter-ca0001");
    const res = await attempt(broker.url, {
      username: "meter-ca0001",
      password: "meter-pass-3",
      ca: files.ca,
      cert: stranger.cert_pem,
      key: stranger.key_pem,
    });
    assert.match(String(res.outcome), /UNKNOWN_CA/);
    await end(res.client);
    const probed = await probe(p.t.deps, {
      username: "meter-ca0001",
      password: "meter-pass-3",
      prefix: "sensor/ca0001",
      certificate: () => Promise.resolve(stranger),
    });
    assert.equal(!probed.ok && probed.reason, "tls_unknown_ca");
  }));

Deno.test("a password or username changed in the portal works on Mosquitto and the old one does not", () =>
  withDynsecPortal(async (p, broker) => {
    const sensor =
      (await (await addSensor(p, "PW0001", "meter-pw0001", "old-pass-0123456789")).json())
        .id as number;
    const files = await download(p, sensor);
    const edit = (username: string, password: string) =>
      call(p.t, "PUT", `/api/devices/${p.station}/sensors/${sensor}`, {
        token: p.token,
        json: {
          name: "Meter PW0001",
          serial_number: "PW0001",
          config: {
            mqtt: { username, password },
            sensor: { unit_id: "unit_1", tenant_id: null, ip_address: "10.0.0.9" },
          },
        },
      });
    const outcomes = async (logins: [string, string, string | number][]) => {
      for (const [username, password, want] of logins) {
        const got = await outcomeOf(broker.url, { username, password, ...files });
        assert.equal(got, want, `${username} with ${password}`);
      }
    };
    assert.equal((await edit("meter-pw0001", "new-pass-0123456789")).status, 200);
    await outcomes([
      ["meter-pw0001", "old-pass-0123456789", 5],
      ["meter-pw0001", "new-pass-0123456789", "connected"],
    ]);

    // A new username with a blank password keeps the (sealed) password.
    assert.equal((await edit("meter-pw0001-b", "")).status, 200);
    await outcomes([
      ["meter-pw0001", "new-pass-0123456789", 5],
      ["meter-pw0001-b", "new-pass-0123456789", "connected"],
    ]);
    assert.equal((await testConnection(p, sensor)).success, true);
  }));

Deno.test("Test MQTT Connection reports the broker's refusal once the sensor's account is gone", () =>
  withDynsecPortal(async (p, broker) => {
    const sensor = (await (await addSensor(p, "GONE01", "meter-gone01", "meter-pass-4")).json())
      .id as number;
    assert.equal((await testConnection(p, sensor)).success, true);
    const session = await openDynsec({ url: broker.url, ...ADMIN, tls: await portalTls(p.t.deps) });
    try {
      // The station has its own account and role too.
      const [station] = await session.run([getClientCommand("station-dyn1")]);
      const roles = (station.data as { client: { roles: { rolename: string }[] } }).client.roles;
      assert.deepEqual(roles.map((r) => r.rolename), [`portal-device-${p.station}`]);
      const [answer] = await session.run([deleteClientCommand("meter-gone01")]);
      assert.equal(answer.error, undefined);
    } finally {
      await session.close();
    }
    const res = await testConnection(p, sensor);
    assert.equal(res.success, false);
    assert.equal(
      res.message,
      "MQTT Connection test failed: the broker says the sensor is not authorized (unknown account, wrong password or removed)",
    );
  }));

Deno.test("a sensor change the broker cannot take is refused with a clear error and leaves nothing behind", () =>
  withDynsecPortal(async (p, broker) => {
    const sensor = (await (await addSensor(p, "KEEP01", "meter-keep01", "meter-pass-5")).json())
      .id as number;
    // The broker's own admin account cannot be taken over by a device.
    const taken = await addSensor(p, "TAKE01", ADMIN.username, "meter-pass-6", "unit_2");
    assert.equal(taken.status, 502);
    assert.match((await taken.json()).message, /another account on the broker/);
    await broker.close();

    const down = await addSensor(p, "DOWN01", "meter-down01", "meter-pass-7", "unit_2");
    assert.equal(down.status, 502);
    assert.match((await down.json()).message, /could not be reached.*nothing was changed/);
    const del = await call(p.t, "DELETE", `/api/devices/${p.station}/sensors/${sensor}`, {
      token: p.token,
    });
    assert.equal(del.status, 502);
    const list = await call(p.t, "GET", `/api/devices/${p.station}/sensors`, { token: p.token });
    assert.equal(list.status, 200);
    const text = await list.text();
    assert.ok(text.includes("KEEP01"), "the sensor whose delete was refused is kept");
    assert.ok(!text.includes("DOWN01"), "the refused sensor was not created");
    assert.ok(!text.includes("TAKE01"), "the refused sensor was not created");
  }));

Deno.test("a broker without the dynamic-security plugin makes the client time out with a clear error", async () => {
  const plain = await startMosquitto();
  try {
    const session = await openDynsec({
      url: plain.url,
      username: "anyone",
      password: "x",
      timeoutMs: 500,
    });
    try {
      await assert.rejects(
        session.run([deleteClientCommand("meter-x")]),
        (e: unknown) =>
          e instanceof DynsecError && e.kind === "timeout" &&
          /did not answer deleteClient within 500 ms \(is the plugin loaded\?\)/.test(e.message),
      );
    } finally {
      await session.close();
    }
  } finally {
    await plain.close();
  }
});
