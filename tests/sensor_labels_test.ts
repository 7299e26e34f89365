/**
 * The sensor page's Device Information says the MQTT connection (Unknown, Connected,
 * Disconnected: spec 000 section 4) and, for a sensor changed more than 5 s after it was
 * created, when it was edited (spec 000 section 9).
 */
import assert from "node:assert/strict";
import { call } from "./_helpers.ts";
import { stationWorld } from "./_station_world.ts";
import { markOffline, markOnline } from "../db/device_status.ts";
import { updateDevice } from "../db/devices.ts";

/** The Device Information card's `dt`/`dd` pairs as `label: value` lines. */
function infoOf(html: string): string {
  const i = html.indexOf('data-testid="device-info"');
  const card = html.slice(i, html.indexOf("</dl>", i));
  return [...card.matchAll(/<dt>([^<]*)<\/dt><dd[^>]*>([^<]*)<\/dd>/g)]
    .map((m) => `${m[1]}: ${m[2]}`).join("\n");
}

Deno.test("sensor page: MQTT connection Unknown, Connected, Disconnected; Edited only after 5 s", async () => {
  const w = await stationWorld();
  try {
    const { t, stationId, sensorId } = w;
    const path = `/admin/devices/station/${stationId}/sensor/${sensorId}/data`;
    const info = async () =>
      infoOf(await (await call(t, "GET", path, { token: w.admin.token })).text());
    const first = await info();
    assert.match(first, /^MQTT Connection: Unknown$/m);
    assert.doesNotMatch(first, /Edited/);

    await markOnline(t.deps.kv, sensorId, Date.now());
    assert.match(await info(), /^MQTT Connection: Connected$/m);
    await markOffline(t.deps.kv, sensorId, Date.now(), "will", []);
    assert.match(await info(), /^MQTT Connection: Disconnected$/m);

    const edit = (ms: number) =>
      updateDevice(t.deps.kv, sensorId, (cur) => ({ ...cur, updated_at: cur.created_at + ms }));
    await edit(5_000);
    assert.doesNotMatch(await info(), /Edited/, "5 s after creation is not an edit");
    await edit(5_001);
    assert.match(await info(), /^Edited: \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/m);
  } finally {
    w.t.close();
  }
});
