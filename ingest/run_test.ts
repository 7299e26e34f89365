import assert from "node:assert/strict";
import { redactUrl } from "./run.ts";

Deno.test("redactUrl() hides a password in a broker URL", () => {
  assert.equal(
    redactUrl("mqtts://ingest:s3cret@broker.example:8883"),
    "mqtts://ingest:***@broker.example:8883",
  );
  assert.equal(redactUrl("mqtt://127.0.0.1:1883"), "mqtt://127.0.0.1:1883");
  assert.equal(redactUrl("not a url"), "(invalid URL)");
});
