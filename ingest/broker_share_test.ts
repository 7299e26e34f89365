import assert from "node:assert/strict";
import { topicMatches } from "./broker_share.ts";

Deno.test("topicMatches() follows MQTT filters: + one level, # the rest and the parent", () => {
  assert.ok(topicMatches("sensor/+/#", "sensor/abc/events/rpc"));
  assert.ok(topicMatches("sensor/+/#", "sensor/abc"));
  assert.ok(topicMatches("sensor/abc/online", "sensor/abc/online"));
  assert.ok(!topicMatches("sensor/+/#", "station/abc/x"));
  assert.ok(!topicMatches("sensor/+", "sensor/abc/x"));
  assert.ok(!topicMatches("sensor/+/online", "sensor/abc"));
});
