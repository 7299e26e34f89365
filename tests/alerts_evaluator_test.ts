/**
 * The evaluator in ingest's path (issue 30): rules that judge alike share one judgement of a
 * reading but each keeps its own minutes and alert; a run under way goes on when the rules are
 * read again (another rule made meanwhile), and a deleted rule stops judging.
 */
import assert from "node:assert/strict";
import { billingWorld } from "./_billing_world.ts";
import { call } from "./_helpers.ts";
import { AlertEvaluator } from "../services/alerts/mod.ts";

const MIN = 60_000;

Deno.test("rules judged alike keep their own minutes; runs go on across a reload", async () => {
  const now = Date.parse("2026-03-20T18:00:00Z");
  const w = await billingWorld({ now });
  const evaluator = new AlertEvaluator(w.t.deps);
  try {
    const rule = async (json: Record<string, unknown>) => {
      const res = await call(w.t, "POST", "/api/alerts/rules", { token: w.admin, json });
      assert.equal(res.status, 201);
      return (await res.json()).rule.id as string;
    };
    const quick = await rule({ template: "high_power", kw: 5, minutes: 1 });
    const slow = await rule({ template: "high_power", kw: 5, minutes: 3 });
    await evaluator.refresh();
    const open = async () => {
      await evaluator.settled();
      const res = await call(w.t, "GET", "/api/alerts?state=active", { token: w.admin });
      return ((await res.json()).alerts as { rule_id: string; opened_at: number }[])
        .map((
          a,
        ) => [a.rule_id === quick ? "quick" : a.rule_id === slow ? "slow" : "?", a.opened_at])
        .sort();
    };
    const t0 = now - 30 * MIN;
    const at = (m: number, watts: number) =>
      evaluator.samples([{ serial: "SIM-A", ts: t0 + m * MIN, values: { total_power: watts } }]);
    for (let m = 0; m <= 2; m++) at(m, 8000);
    assert.deepEqual(await open(), [["quick", t0 + MIN]]);
    // The rules read again (another rule made): the slow rule's run since minute 0 goes on.
    await rule({ template: "voltage_band" });
    await evaluator.refresh();
    at(3, 8000);
    assert.deepEqual(await open(), [["quick", t0 + MIN], ["slow", t0 + 3 * MIN]]);
    // Deleted, the slow rule judges no more: its alert stays as it is when the power falls.
    assert.equal(
      (await call(w.t, "DELETE", `/api/alerts/rules/${slow}`, { token: w.admin })).status,
      200,
    );
    await evaluator.refresh();
    for (let m = 4; m <= 6; m++) at(m, 1000);
    assert.deepEqual(await open(), [["slow", t0 + 3 * MIN]]);
  } finally {
    await evaluator.stop();
    w.t.close();
  }
});
