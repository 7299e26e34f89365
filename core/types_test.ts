import assert from "node:assert/strict";
import { assignmentsForRole, canDeleteAccessCode, canResolveByHand } from "./types.ts";

Deno.test("an access code may be deleted when unused, or used with no user id", () => {
  assert.ok(canDeleteAccessCode({ is_used: false, used_by_id: null }));
  assert.ok(canDeleteAccessCode({ is_used: true, used_by_id: null }));
  assert.ok(!canDeleteAccessCode({ is_used: true, used_by_id: 7 }));
});

Deno.test("sensor_offline notifications cannot be resolved by hand; others while active", () => {
  assert.ok(!canResolveByHand({ type: "sensor_offline", status: "active" }));
  assert.ok(canResolveByHand({ type: "bill_created", status: "active" }));
  assert.ok(!canResolveByHand({ type: "bill_created", status: "resolved" }));
});

Deno.test("a role change keeps only the assignments of the new role", () => {
  const a = { stations: [1, 2], units: ["5:unit_1"] };
  assert.deepEqual(assignmentsForRole(a, "customer"), { stations: [1, 2], units: [] });
  assert.deepEqual(assignmentsForRole(a, "user"), { stations: [], units: ["5:unit_1"] });
  assert.deepEqual(assignmentsForRole(a, "admin"), { stations: [], units: [] });
});
