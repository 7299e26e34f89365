/**
 * Alerts on the pages and on the timer (issue 30): `/admin/alerts` lists open alerts first and
 * acknowledges with a note; a bad rule is refused in the admin's language and changes nothing;
 * the station and sensor pages show their open alerts; a meter silent beyond the rule's minutes
 * opens a no-data alert and its next message clears it; a unit's night far above its own
 * baseline (nights without data left out) opens a consumption alert the tenant sees as an
 * insight, and the owner reads through the API but may not acknowledge.
 */
import assert from "node:assert/strict";
import { billingWorld } from "./_billing_world.ts";
import { call } from "./_helpers.ts";
import { runAlertTimer } from "../services/alerts/mod.ts";
import { createStatusService } from "../services/devices/mod.ts";
import { listAlertRules } from "../db/alert_rules.ts";
import { recordLastSeen } from "../db/device_status.ts";

const H = 3_600_000;
const DAY = 24 * H;

Deno.test("timer rules, the admin's page, the station and sensor pages, the tenant's insight", async () => {
  // 2026-03-20 12:00 in the business zone (UTC-6).
  const w = await billingWorld({
    now: Date.parse("2026-03-20T18:00:00Z"),
    admin: { email: "admin@test.mx", language: "de" },
    owner: true,
  });
  try {
    const rule = (json: Record<string, unknown>) =>
      call(w.t, "POST", "/api/alerts/rules", { token: w.admin, json });
    assert.equal(
      (await rule({ template: "no_data", scope: "meter", scope_id: "sim-b", minutes: 30 })).status,
      201,
    );
    assert.equal(
      (await rule({ template: "night_usage", factor: 3, night_start: 0, night_end: 5 })).status,
      201,
    );
    // A bad rule: refused in German, naming the field; nothing stored.
    const bad = await call(w.t, "POST", "/admin/alerts/rules", {
      token: w.admin,
      form: { template: "no_data", scope: "zone" },
    });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /Nennen Sie die Zone, Station oder den Zähler der Regel/);
    assert.equal((await listAlertRules(w.t.deps.kv)).length, 2);

    // SIM-A: 0.5 kWh every night (some nights without data), 3 kWh last night.
    const night = (d: number) => Date.parse("2026-03-20T06:00:00Z") - d * DAY; // 00:00 local
    const samples = [];
    let kwh = 100;
    for (let d = 16; d >= 0; d--) {
      if (d % 4 === 2) continue; // a night without readings
      const use = d === 0 ? 3 : 0.5;
      for (const at of [night(d) - 60_000, night(d) + 60_000]) {
        samples.push({ serial: "SIM-A", ts: at, values: { total_energy_kwh: kwh } });
      }
      kwh += use;
      samples.push({
        serial: "SIM-A",
        ts: night(d) + 5 * H - 60_000,
        values: { total_energy_kwh: kwh },
      });
      kwh += 1;
    }
    w.t.deps.telemetry.write(samples);
    await w.t.deps.telemetry.flush();
    // SIM-B spoke an hour ago: silent beyond 30 minutes.
    const status = createStatusService(w.t.deps);
    await status.online("SIM-B", w.clock.now - H);
    await status.close?.();
    await runAlertTimer(w.t.deps);
    await runAlertTimer(w.t.deps); // the daily rule runs once a day; silence stays one alert

    const list = await call(w.t, "GET", "/api/alerts", { token: w.admin });
    const alerts = (await list.json()).alerts as Record<string, unknown>[];
    assert.deepEqual(alerts.map((a) => [a.template, a.subject, a.state, a.value]).sort(), [
      ["night_usage", "SIM-A", "open", 3],
      ["no_data", "SIM-B", "open", 60],
    ]);
    const silence = alerts.find((a) => a.template === "no_data")!;

    // The admin's page, then acknowledging from the station page comes back to it.
    const page = await (await call(w.t, "GET", "/admin/alerts", { token: w.admin })).text();
    assert.match(page, /Keine Daten/);
    assert.match(page, /Nachtverbrauch über dem Grundwert/);
    const stationPage = `/admin/devices/station/${w.stationId}/data`;
    const station = await (await call(w.t, "GET", stationPage, { token: w.admin })).text();
    assert.match(station, /Offene Alarme[\s\S]*SIM-B/);
    const sensorPage = `/admin/devices/station/${w.stationId}/sensor/${w.sensors[1]}/data`;
    const sensor = await (await call(w.t, "GET", sensorPage, { token: w.admin })).text();
    assert.match(sensor, /Offene Alarme[\s\S]*Keine Daten/);
    // The page's own content (the bell names the rules of the reader's alerts, any meter's).
    const main = sensor.slice(sensor.indexOf("<main"), sensor.indexOf("</main>"));
    assert.doesNotMatch(main, /Nachtverbrauch/);
    const ack = await call(w.t, "POST", `/admin/alerts/${silence.id}/acknowledge`, {
      token: w.admin,
      form: { note: "Router reiniciado", back: stationPage },
    });
    assert.equal(ack.status, 303);
    assert.equal(ack.headers.get("location"), `${stationPage}?done=done.acknowledged`);
    const owner = await call(w.t, "GET", "/api/alerts", { token: w.owner!.token });
    assert.equal((await owner.json()).alerts.length, 2);
    assert.equal(
      (await call(w.t, "POST", `/api/alerts/${silence.id}/resolve`, { token: w.owner!.token }))
        .status,
      403,
    );

    // The tenant of SIM-A sees their night as an insight, not the other unit's silence.
    const tenant = await (await call(w.t, "GET", "/user", { token: w.tenantTokens[0] })).text();
    assert.match(tenant, /Consumo inusual[\s\S]*Consumo nocturno sobre su base/);
    assert.doesNotMatch(tenant, /Sin datos/);

    // SIM-B speaks again: the next pass clears its alert by itself.
    await recordLastSeen(w.t.deps.kv, [[w.sensors[1], w.clock.now]]);
    await runAlertTimer(w.t.deps);
    const after =
      (await (await call(w.t, "GET", "/api/alerts?state=resolved", { token: w.admin })).json())
        .alerts;
    assert.partialDeepStrictEqual(after, [{
      id: silence.id,
      resolved_by: null,
      note: "Router reiniciado",
    }]);
  } finally {
    w.t.close();
  }
});
