/**
 * Alerts end to end (issue 30): a meter's Shelly frames, published to Mosquitto and to the
 * embedded broker, trip a reversed-clamp rule in ingest's path and clear it; one alert however
 * the signal flaps; the admins' mail, its repeat and the escalation to the second list with a
 * moved clock (none after the acknowledgement), and the resolution, received over SMTP; and
 * voltage band, phase lost, power limit and power factor each tripping one alert and clearing.
 */
import assert from "node:assert/strict";
import { billingWorld } from "./_billing_world.ts";
import { call } from "./_helpers.ts";
import { mailsTo, receiver } from "./_mail.ts";
import {
  BROKERS,
  meterClient,
  notifyFrame,
  startTestIngest,
  testSensor,
  waitFor,
} from "./ingest/_helpers.ts";
import { AlertEvaluator, runAlertTimer } from "../services/alerts/mod.ts";
import { deliverDue } from "../services/messages/mod.ts";

const H = 3_600_000;

for (const b of BROKERS) {
  Deno.test(`a reversed clamp through ${b.name}: one alert, mailed, repeated, escalated, acknowledged, cleared`, async () => {
    const w = await billingWorld({
      now: Date.now(),
      admin: { email: "admin@test.mx", language: "en" },
      owner: { email: "owner@test.mx", language: "de" },
    });
    const r = await receiver();
    const evaluator = new AlertEvaluator(w.t.deps);
    const created = await call(w.t, "POST", "/api/alerts/rules", {
      token: w.admin,
      json: {
        template: "reverse_power",
        scope: "station",
        scope_id: String(w.stationId),
        tolerance_w: 50,
        minutes: 1,
        repeat_hours: 2,
        escalate_hours: 5,
        escalate_to: [w.owner!.id],
      },
    });
    assert.equal(created.status, 201);
    await evaluator.refresh();
    const device = testSensor("SIM-A");
    const ing = await startTestIngest(b.start, [device], { onSamples: evaluator.samples });
    const meter = await meterClient(ing.broker.url, device, `alerts-${b.name}`);
    try {
      await ing.ingest.ready;
      const t0 = Math.floor(Date.now() / 1000) - 3600;
      // Reversed for a minute, flapping inside the hysteresis band (-30 W) and out again.
      const power = [-100, -30, -120, -30, -110, -90, -100];
      for (const [i, p] of power.entries()) {
        await meter.publishAsync(`${device.prefix}/events/rpc`, notifyFrame(t0 + i * 15, p), {
          qos: 1,
        });
      }
      const alerts = async () =>
        (await (await call(w.t, "GET", "/api/alerts", { token: w.admin })).json()).alerts;
      await waitFor(async () => {
        await evaluator.settled();
        return (await alerts()).length > 0;
      }, "the alert to open");
      const [alert, ...others] = await alerts();
      assert.equal(others.length, 0);
      assert.partialDeepStrictEqual(alert, {
        template: "reverse_power",
        subject: "SIM-A",
        state: "open",
        value: -110,
        key: "total_power",
        opened_at: (t0 + 60) * 1000,
      });
      await deliverDue(w.t.deps, r.senders());
      const subjects = (to: string) => mailsTo(r, to).map((m) => m.subject);
      assert.deepEqual(subjects("admin@test.mx"), [
        "Alert: Reversed clamp (negative power) on SIM-A",
      ]);
      assert.match(
        mailsTo(r, "admin@test.mx")[0].text ?? "",
        /-0\.11 kW.*\n[\s\S]*\/admin\/alerts\?id=/,
      );

      // Nobody acknowledges: repeated after 2 h, escalated to the owner after 5 h; once each.
      w.clock.now = alert.opened_at + 2 * H;
      await runAlertTimer(w.t.deps);
      await runAlertTimer(w.t.deps);
      w.clock.now = alert.opened_at + 5 * H;
      await runAlertTimer(w.t.deps);
      await deliverDue(w.t.deps, r.senders());
      assert.deepEqual(subjects("admin@test.mx").slice(1), [
        "Still open: Reversed clamp (negative power) on SIM-A",
        "Still open: Reversed clamp (negative power) on SIM-A",
      ]);
      assert.deepEqual(subjects("owner@test.mx"), [
        "Eskaliert: Verdrehte Stromzange (negative Leistung) an SIM-A",
      ]);

      // Acknowledged: no more repeats; a second acknowledgement is refused.
      const ack = await call(w.t, "POST", `/api/alerts/${alert.id}/acknowledge`, {
        token: w.admin,
        json: { note: "Electrician booked" },
      });
      assert.equal(ack.status, 200);
      const again = await call(w.t, "POST", `/api/alerts/${alert.id}/acknowledge`, {
        token: w.admin,
        json: {},
      });
      assert.equal(again.status, 409);
      w.clock.now = alert.opened_at + 12 * H;
      await runAlertTimer(w.t.deps);
      await deliverDue(w.t.deps, r.senders());
      assert.equal(subjects("admin@test.mx").length, 3);

      // The clamp is turned: after a minute of positive power the alert resolves by itself.
      for (let i = 0; i < 6; i++) {
        await meter.publishAsync(
          `${device.prefix}/events/rpc`,
          notifyFrame(t0 + 200 + i * 15, 400),
          { qos: 1 },
        );
      }
      await waitFor(async () => {
        await evaluator.settled();
        return (await alerts())[0].state === "resolved";
      }, "the alert to clear");
      const [done] = await alerts();
      assert.partialDeepStrictEqual(done, {
        id: alert.id,
        acknowledged_by: w.adminUser.id,
        note: "Electrician booked",
        resolved_by: null,
      });
      await deliverDue(w.t.deps, r.senders());
      assert.equal(
        subjects("admin@test.mx").at(-1),
        "Resolved: Reversed clamp (negative power) on SIM-A",
      );
      assert.equal(
        subjects("owner@test.mx").at(-1),
        "Behoben: Verdrehte Stromzange (negative Leistung) an SIM-A",
      );
      // The owner reads the station's alert; the tenant sees no device alert as an insight.
      const owner = await call(w.t, "GET", "/api/alerts", { token: w.owner!.token });
      assert.equal((await owner.json()).alerts.length, 1);
      const tenant = await call(w.t, "GET", "/api/alerts", { token: w.tenantTokens[0] });
      assert.deepEqual((await tenant.json()).alerts, []);
      const refused = await call(w.t, "POST", `/api/alerts/${alert.id}/resolve`, {
        token: w.owner!.token,
      });
      assert.equal(refused.status, 403);
    } finally {
      await meter.endAsync();
      await ing.close();
      await evaluator.stop();
      await r.stop();
      w.t.close();
    }
  });
}

/** A full frame of the meter's em:0 at `ts` (s): phase voltages, active and apparent power. */
const emFrame = (ts: number, v: [number, number, number], w: number, va: number) =>
  JSON.stringify({
    method: "NotifyStatus",
    params: {
      ts,
      "em:0": {
        id: 0,
        a_voltage: v[0],
        b_voltage: v[1],
        c_voltage: v[2],
        total_act_power: w,
        total_aprt_power: va,
      },
    },
  });

for (const b of BROKERS) {
  Deno.test(`each device rule through ${b.name}: one alert each while it holds, cleared when it ends`, async () => {
    const w = await billingWorld({ now: Date.now() });
    const evaluator = new AlertEvaluator(w.t.deps);
    const rules = [
      { template: "voltage_band", minutes: 1 },
      { template: "phase_lost", minutes: 1 },
      { template: "high_power", kw: 5, minutes: 1 },
      { template: "low_pf", pf: 0.8, minutes: 1 },
    ];
    for (const json of rules) {
      const res = await call(w.t, "POST", "/api/alerts/rules", { token: w.admin, json });
      assert.equal(res.status, 201);
    }
    await evaluator.refresh();
    const device = testSensor("SIM-A");
    const ing = await startTestIngest(b.start, [device], { onSamples: evaluator.samples });
    const meter = await meterClient(ing.broker.url, device, `rules-${b.name}`);
    try {
      await ing.ingest.ready;
      const t0 = Math.floor(Date.now() / 1000) - 3600;
      const send = async (i: number, v: [number, number, number], watts: number, va: number) =>
        await meter.publishAsync(
          `${device.prefix}/events/rpc`,
          emFrame(t0 + i * 15, v, watts, va),
          {
            qos: 1,
          },
        );
      // Low voltage on a, b lost, 6 kW at pf 0.6 for a minute (twice as many frames as needed).
      for (let i = 0; i < 8; i++) await send(i, [100, 0, 127], 6000, 10_000);
      const list = async (state: string) =>
        (await (await call(w.t, "GET", `/api/alerts?state=${state}`, { token: w.admin })).json())
          .alerts as { template: string; value: number; state: string }[];
      await waitFor(async () => {
        await evaluator.settled();
        return (await list("active")).length === 4;
      }, "four alerts");
      assert.deepEqual(
        (await list("active")).map((a) => [a.template, a.value]).sort(),
        [["high_power", 6000], ["low_pf", 0.6], ["phase_lost", 0], ["voltage_band", 100]],
      );
      // Back to normal for a minute: each clears by itself; none opened twice.
      for (let i = 8; i < 14; i++) await send(i, [127, 127, 127], 1000, 1050);
      await waitFor(async () => {
        await evaluator.settled();
        return (await list("resolved")).length === 4;
      }, "four alerts cleared");
      assert.deepEqual(await list("active"), []);
    } finally {
      await meter.endAsync();
      await ing.close();
      await evaluator.stop();
      w.t.close();
    }
  });
}
