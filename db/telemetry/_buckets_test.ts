import assert from "node:assert/strict";
import { bucketCeil, bucketFloor, bucketNext, isBucket } from "./_buckets.ts";

const iso = (ms: number) => new Date(ms).toISOString();
const at = (s: string) => Date.parse(s);

Deno.test("bucketFloor() aligns 15 minutes, hours and days to UTC boundaries", () => {
  const ts = at("2024-03-10T13:47:12.345Z");
  assert.equal(iso(bucketFloor("15m", ts)), "2024-03-10T13:45:00.000Z");
  assert.equal(iso(bucketFloor("1h", ts)), "2024-03-10T13:00:00.000Z");
  assert.equal(iso(bucketFloor("1d", ts)), "2024-03-10T00:00:00.000Z");
  assert.equal(iso(bucketFloor("1M", ts)), "2024-03-01T00:00:00.000Z");
  assert.equal(bucketFloor("15m", at("2024-03-10T13:45:00Z")), at("2024-03-10T13:45:00Z"));
});

Deno.test("bucketNext() steps months of 28, 29, 30 and 31 days and across the year", () => {
  assert.equal(iso(bucketNext("1M", at("2024-01-01T00:00:00Z"))), "2024-02-01T00:00:00.000Z");
  assert.equal(iso(bucketNext("1M", at("2024-02-01T00:00:00Z"))), "2024-03-01T00:00:00.000Z");
  assert.equal(iso(bucketNext("1M", at("2023-02-01T00:00:00Z"))), "2023-03-01T00:00:00.000Z");
  assert.equal(iso(bucketNext("1M", at("2024-12-01T00:00:00Z"))), "2025-01-01T00:00:00.000Z");
  assert.equal(iso(bucketNext("1d", at("2024-02-28T00:00:00Z"))), "2024-02-29T00:00:00.000Z");
  assert.equal(iso(bucketNext("15m", at("2024-02-28T23:45:00Z"))), "2024-02-29T00:00:00.000Z");
});

Deno.test("bucketCeil() keeps a boundary and rounds anything else up", () => {
  assert.equal(bucketCeil("1h", at("2024-05-01T10:00:00Z")), at("2024-05-01T10:00:00Z"));
  assert.equal(bucketCeil("1h", at("2024-05-01T10:00:00.001Z")), at("2024-05-01T11:00:00Z"));
  assert.equal(bucketCeil("1M", at("2024-05-31T23:00:00Z")), at("2024-06-01T00:00:00Z"));
});

Deno.test("isBucket() accepts the four sizes only", () => {
  for (const b of ["15m", "1h", "1d", "1M"]) assert.ok(isBucket(b), b);
  for (const b of ["1m", "1y", "", 15, null]) assert.ok(!isBucket(b), String(b));
});
