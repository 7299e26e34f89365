/**
 * Test MQTT Connection on the sensor page without JavaScript: the form post runs the test
 * and redirects back with the result in the query (`mqtt_test` = `ok` or the reason,
 * `mqtt_detail` = the broker's words); the page words it again from there.
 */
import type { ReactNode } from "react";
import type { Deps } from "./_deps.ts";
import type { Translate } from "../services/platform/i18n.ts";
import {
  meterBroker,
  probeMessage,
  type ProbeResult,
  testSensorConnection,
} from "../services/devices/mod.ts";
import { TestConnection } from "../components/devices/sensor/TestConnection.tsx";

const sensorPage = (stationId: number, sensorId: number) =>
  `/admin/devices/station/${stationId}/sensor/${sensorId}/data`;

/** Runs the test; answers where to go back to (null when there is no such sensor). */
export async function testAndReturn(
  deps: Deps,
  stationId: number,
  sensorId: number,
): Promise<string | null> {
  let r: ProbeResult | null;
  try {
    r = await testSensorConnection(deps, stationId, sensorId);
  } catch (e) {
    // The test could not run (the store failing): 'MQTT Connection test failed: Unknown error'.
    deps.log.log("error", "MQTT connection test could not run", { sensorId, error: String(e) });
    return `${sensorPage(stationId, sensorId)}?mqtt_test=error#mqtt-test`;
  }
  if (!r) return null;
  const q = new URLSearchParams(
    r.ok ? { mqtt_test: "ok" } : { mqtt_test: r.reason, mqtt_detail: r.detail.slice(0, 200) },
  );
  return `${sensorPage(stationId, sensorId)}?${q}#mqtt-test`;
}

/** The result named by the query, worded; null when there is none or it is not one. */
function resultFromQuery(
  deps: Deps,
  t: Translate,
  query: (name: string) => string | undefined,
): { ok: boolean; message: string } | null {
  const reason = query("mqtt_test");
  if (!reason || !/^[a-z_]{1,40}$/.test(reason)) return null;
  const broker = meterBroker(deps).address;
  if (reason === "ok") return { ok: true, message: probeMessage(t, { ok: true, broker }) };
  if (reason === "error") {
    const unknown = { ok: false, broker, reason, detail: "" } as unknown as ProbeResult;
    return { ok: false, message: probeMessage(t, unknown) };
  }
  if (t(`mqtt_test.reasons.${reason}`) === `mqtt_test.reasons.${reason}`) return null;
  const detail = (query("mqtt_detail") ?? "").slice(0, 200);
  const r = { ok: false, broker, reason, detail } as ProbeResult;
  return { ok: false, message: probeMessage(t, r) };
}

/** The button with the result of the query, for the sensor page's panel. */
export function testConnectionSlot(
  deps: Deps,
  t: Translate,
  stationId: number,
  sensorId: number,
  query: (name: string) => string | undefined,
): ReactNode {
  return (
    <TestConnection
      t={t}
      action={`/admin/devices/station/${stationId}/sensor/${sensorId}/test-mqtt`}
      broker={meterBroker(deps).address}
      result={resultFromQuery(deps, t, query)}
    />
  );
}
