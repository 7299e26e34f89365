import assert from "node:assert/strict";
import { openTelemetry } from "./open.ts";

Deno.test("openTelemetry() opens the SQLite store when no QuestDB URL is configured", async () => {
  const store = await openTelemetry({ sqlitePath: ":memory:", rawRetentionDays: 7 });
  try {
    assert.equal(store.stats().backend, "sqlite");
  } finally {
    await store.close();
  }
  await assert.rejects(
    () => openTelemetry({ sqlitePath: ":memory:", rawRetentionDays: -1 }),
    RangeError,
  );
});

Deno.test("openTelemetry() opens the QuestDB store when a QuestDB URL is configured", async () => {
  const queries: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    queries.push(new URL(req.url).searchParams.get("query") ?? "");
    return Response.json({ ddl: "OK" });
  });
  try {
    const { port } = server.addr as Deno.NetAddr;
    const store = await openTelemetry({
      questdbUrl: `http://127.0.0.1:${port}`,
      sqlitePath: ":memory:",
    });
    await store.close();
    assert.equal(store.stats().backend, "questdb");
    assert.match(queries[0], /^CREATE TABLE IF NOT EXISTS readings /);
  } finally {
    await server.shutdown();
  }
  await assert.rejects(
    () => openTelemetry({ questdbUrl: "ftp://x", sqlitePath: ":memory:" }),
    TypeError,
  );
});
