/**
 * The readings around an alert's moment (issue 30): `/admin/alerts?id=` (the link of the
 * alert's messages) shows the alert's card with the meter's readings from an hour before it
 * opened to an hour after, the measurement that tripped it, the quarter hours' range and where
 * it opened; an unknown id says so and draws no card; the list links each rule to its card.
 */
import assert from "node:assert/strict";
import { billingWorld } from "./_billing_world.ts";
import { call } from "./_helpers.ts";
import { AlertEvaluator } from "../services/alerts/mod.ts";
import type { Sample } from "../db/telemetry/mod.ts";

const MIN = 60_000;

Deno.test("an alert's card draws the tripping measurement an hour either side of its opening", async () => {
  // 2026-03-20 12:00 in the business zone (UTC-6).
  const now = Date.parse("2026-03-20T18:00:00Z");
  const w = await billingWorld({ now, admin: { email: "admin@test.mx", language: "en" } });
  try {
    const res = await call(w.t, "POST", "/api/alerts/rules", {
      token: w.admin,
      json: { template: "high_power", kw: 5, minutes: 5 },
    });
    assert.equal(res.status, 201);
    // SIM-A: 1 kW every minute for three hours; 8 kW from 10:30 to 10:45 local.
    const start = now - 3 * 60 * MIN; // 09:00 local
    const opensAt = start + 95 * MIN; // five minutes into the excursion
    const samples: Sample[] = [];
    for (let m = 0; m < 180; m++) {
      const w8 = m >= 90 && m < 105;
      samples.push({
        serial: "SIM-A",
        ts: start + m * MIN,
        values: { total_power: w8 ? 8000 : 1000 },
      });
    }
    w.t.deps.telemetry.write(samples);
    await w.t.deps.telemetry.flush();
    const evaluator = new AlertEvaluator(w.t.deps);
    await evaluator.refresh();
    evaluator.samples(samples);
    await evaluator.stop();
    const [alert] = (await (await call(w.t, "GET", "/api/alerts", { token: w.admin })).json())
      .alerts;
    assert.equal(alert.opened_at, opensAt);

    const page = await call(w.t, "GET", `/admin/alerts?id=${alert.id}`, { token: w.admin });
    assert.equal(page.status, 200);
    const html = await page.text();
    const card = html.slice(html.indexOf('data-testid="alert-detail"'));
    assert.match(card, /Total active power · from 1 h before to 1 h after/);
    // 09:30 to 11:45 local in quarter hours: nine buckets, each a point of the average line.
    const avg = card.match(/<polyline class="avg" points="([^"]+)"/);
    assert.ok(avg, "the average line");
    assert.equal(avg[1].split(" ").length, 9);
    assert.match(card, /<polygon class="band" points="[^"]+"/);
    assert.match(card, /09:30<\/span>.*Opened.*10:35<\/span>.*11:45<\/span>/s);
    // The axis reaches the excursion's 8 kW (with a margin above it).
    const top = card.match(/class="alert-chart-y"[^>]*><span>([\d.,]+) kW/);
    assert.ok(top && Number(top[1]) >= 8, `top of the axis: ${top?.[1]}`);
    // The list links each alert to its card.
    assert.match(html, new RegExp(`href="/admin/alerts\\?id=${alert.id}"`));

    const unknown = await call(w.t, "GET", "/admin/alerts?id=ffff", { token: w.admin });
    const text = await unknown.text();
    assert.doesNotMatch(text, /data-testid="alert-detail"/);
    assert.match(text, /class="[^"]*alert-error/);
  } finally {
    w.t.close();
  }
});
