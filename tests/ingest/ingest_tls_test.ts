/**
 * Ingest over MQTT with TLS against a broker that requires client certificates: with the
 * portal's own client certificate (`portalTls`) it connects, and a meter's reading sent over
 * TLS with the sensor's downloaded files reaches the telemetry store.
 */
import assert from "node:assert/strict";
import mqtt from "mqtt";
import { runIngest } from "../../ingest/run.ts";
import { portalTls } from "../../services/devices/provisioning.ts";
import { createDeviceDirectory, createStatusService } from "../../services/devices/status.ts";
import { call } from "../_helpers.ts";
import { stationWorld } from "../_station_world.ts";
import { INGEST_CREDENTIALS, portalTlsBroker, waitFor } from "./_helpers.ts";

Deno.test("ingest with the portal's client certificate reads a meter over TLS when certificates are required", async () => {
  const w = await stationWorld();
  const deps = w.t.deps;
  deps.config = {
    ...deps.config,
    mqtt: { ...deps.config.mqtt, tlsHosts: ["127.0.0.1"], requireClientCert: true },
  };
  const broker = await portalTlsBroker(deps);
  const status = createStatusService(deps);
  const running = runIngest(
    { directory: createDeviceDirectory(deps), status, store: deps.telemetry, log: deps.log },
    {
      url: broker.tlsUrl!,
      ...INGEST_CREDENTIALS,
      tls: await portalTls(deps),
      clientId: "ingest-over-tls",
      batchMs: 10,
      flushMs: 20,
      statsLogMs: 0,
    },
  );
  try {
    await waitFor(() => running.ingest.stats().connected, "ingest connects over TLS", 10_000);
    assert.equal(running.ingest.stats().connected, true);
    const file = async (kind: string) =>
      await (await call(w.t, "GET", `/api/devices/${w.sensorId}/certificates/${kind}`, {
        token: w.admin.token,
      })).text();
    const meter = await mqtt.connectAsync(broker.tlsUrl!, {
      username: "sim0001",
      password: "pw-sim-0123456789",
      clientId: "sim0001",
      ca: await file("ca"),
      cert: await file("cert"),
      key: await file("key"),
      rejectUnauthorized: true,
      reconnectPeriod: 0,
    });
    try {
      await meter.publishAsync(
        "sensor/sim0001/status/em:0",
        JSON.stringify({ id: 0, total_act_power: 1234.5, total_current: 5.4 }),
        { qos: 1 },
      );
      await waitFor(
        async () => (await deps.telemetry.latest("SIM0001"))?.values.total_power === 1234.5,
        "the reading sent over TLS is stored",
      );
    } finally {
      await meter.endAsync();
    }
  } finally {
    await running.stop();
    await status.close();
    await broker.close();
    w.t.close();
  }
});
