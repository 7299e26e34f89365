/**
 * `deno task provision` (services/devices/sync.ts) against a real Mosquitto with TLS, client
 * certificates and the dynamic-security plugin: devices made while MQTT_DYNSEC was off get
 * their broker accounts, and a device without a kept password is listed to be set again.
 */
import assert from "node:assert/strict";
import { account, created, sensorBody, stationBody, testApp, testCa, unitIds } from "./_helpers.ts";
import { download, outcomeOf, startSecureMosquitto } from "./_mosquitto_dynsec.ts";
import { loadConfig } from "../services/platform/config.ts";
import { syncDeviceAccounts } from "../services/devices/mod.ts";
import { getDevice, updateDevice } from "../db/devices.ts";

const ADMIN = { username: "portal-admin", password: "admin-pass-0123456789" };

const config = (url: string, dynsec: "on" | "off") =>
  loadConfig({
    DATA_DIR: "/nonexistent",
    MQTT_URL: url,
    MQTT_USERNAME: ADMIN.username,
    MQTT_PASSWORD: ADMIN.password,
    MQTT_DYNSEC: dynsec,
    INGEST: "off",
  });

Deno.test("syncing device accounts provisions devices made before dynamic security and lists those without a kept password", async () => {
  const broker = await startSecureMosquitto(await testCa(), ADMIN);
  const t = await testApp({ config: config(broker.url, "off") });
  try {
    const admin = await account(t, "admin");
    const post = (path: string, json: unknown) => created(t, admin.token, path, json);
    const station = await post(
      "/api/devices",
      stationBody({
        name: "Sync station",
        serial: "STSYNC",
        stationId: "st_sync",
        mqtt: { username: "station-sync", password: "station-pass-9" },
        units: unitIds(2),
      }),
    );
    const sensor = (serial: string, unit: string) =>
      post(
        `/api/devices/${station}/sensors`,
        sensorBody({
          name: `Meter ${serial}`,
          serial,
          unit,
          mqtt: {
            username: `meter-${serial.toLowerCase()}`,
            password: `pass-${serial}-0123456789`,
          },
        }),
      );
    const kept = await sensor("SYNC01", "unit_1");
    const legacy = await sensor("SYNC02", "unit_2");
    // A device whose password was set before the portal kept it sealed.
    await updateDevice(t.deps.kv, legacy, (d) => {
      const { mqtt_password_sealed: _, ...rest } = d;
      return rest;
    });
    const files = await download({ t, token: admin.token }, kept);
    const login = { username: "meter-sync01", password: "pass-SYNC01-0123456789", ...files };
    assert.equal(
      await outcomeOf(broker.url, login),
      5,
      "no broker account while MQTT_DYNSEC was off",
    );

    t.deps.config = config(broker.url, "on");
    const result = await syncDeviceAccounts(t.deps);
    assert.deepEqual(result.provisioned.sort(), [station, kept].sort());
    assert.deepEqual(result.needs_password.map((f) => f.id), [legacy]);
    assert.deepEqual(result.failed, []);
    assert.equal(await outcomeOf(broker.url, login), "connected", await broker.log());
    assert.ok(await getDevice(t.deps.kv, legacy), "nothing was deleted");

    // Running it again changes nothing that works.
    const again = await syncDeviceAccounts(t.deps);
    assert.equal(again.provisioned.length, 2);
    assert.equal(await outcomeOf(broker.url, login), "connected");
  } finally {
    t.close();
    await broker.close();
  }
});
