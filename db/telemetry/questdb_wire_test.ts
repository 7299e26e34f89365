/**
 * What the QuestDB store sends over the wire: the real ILP sender of
 * `@questdb/nodejs-client` is pointed at a small HTTP server on 127.0.0.1 that records the
 * body of every `/write` request and answers `/exec` the way QuestDB does for the two
 * statements a write needs (the CREATE TABLE at open and the WAL status after a flush).
 */
import assert from "node:assert/strict";
import { openQuestDbStore } from "./questdb.ts";
import type { TelemetryStore } from "./mod.ts";
import { execAnswer } from "../../tests/_questdb.ts";

const D = Date.UTC(2024, 2, 10); // 1710028800000 ms

interface Recorded {
  writes: { body: string; auth: string | null; path: string }[];
  queries: { sql: string; auth: string | null }[];
}

/** Serves until `fn` is done; WAL status reports the write applied after `lagPolls` polls. */
async function withServer(
  fn: (url: string, seen: Recorded) => Promise<void>,
  options: {
    lagPolls?: number;
    credentials?: string;
    /** Answers other queries (a QuestDB JSON answer), or null for "table does not exist". */
    answer?: (sql: string) => unknown;
  } = {},
): Promise<void> {
  const seen: Recorded = { writes: [], queries: [] };
  let txn = 1, polls = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const auth = req.headers.get("authorization");
    if (req.method === "POST" && url.pathname === "/write") {
      seen.writes.push({ body: await req.text(), auth, path: url.pathname + url.search });
      txn++;
      polls = 0;
      return new Response(null, { status: 204 });
    }
    if (url.pathname === "/exec") {
      const sql = url.searchParams.get("query") ?? "";
      seen.queries.push({ sql, auth });
      if (sql.startsWith("CREATE TABLE")) return Response.json({ ddl: "OK" });
      if (sql.includes("wal_tables()")) {
        const applied = polls++ < (options.lagPolls ?? 0) ? txn - 1 : txn;
        return Response.json(
          execAnswer(sql, { writerTxn: "LONG", sequencerTxn: "LONG" }, [[applied, txn]]),
        );
      }
      const answer = options.answer?.(sql);
      if (answer) return Response.json(answer);
      return Response.json(
        { query: sql, error: "table does not exist [table=nope]", position: 14 },
        { status: 400 },
      );
    }
    return new Response("not found", { status: 404 });
  });
  const { port } = server.addr as Deno.NetAddr;
  const cred = options.credentials ? `${options.credentials}@` : "";
  try {
    await fn(`http://${cred}127.0.0.1:${port}`, seen);
  } finally {
    await server.shutdown();
  }
}

/** {@link withServer} with a store opened on it (on `table` if given), closed however `fn` ends. */
function withStore(
  fn: (store: TelemetryStore, seen: Recorded, url: string) => Promise<void>,
  options: Parameters<typeof withServer>[1] & { table?: string } = {},
): Promise<void> {
  return withServer(async (url, seen) => {
    const store = await openQuestDbStore(url, options.table ? { table: options.table } : {});
    try {
      await fn(store, seen, url);
    } finally {
      await store.close();
    }
  }, options);
}

Deno.test("the QuestDB store creates its table and sends one ILP line per sample", async () => {
  await withStore(async (store, seen) => {
    assert.equal(seen.queries.length, 1);
    assert.match(
      seen.queries[0].sql,
      /^CREATE TABLE IF NOT EXISTS readings \(serial SYMBOL, total_power DOUBLE/,
    );
    store.write([
      { serial: "SPEM-1", ts: D, values: { total_power: 1200.5, phase_a_voltage: 230.1 } },
      {
        serial: "SPEM-1",
        ts: D + 10_000,
        values: { total_energy_kwh: 2852.05581, total_pf: null as unknown as number },
      },
      { serial: "SN 2,x", ts: D, values: { total_power: 7 } },
      { serial: "SPEM-1", ts: D, values: { total_current: 5.25 } }, // same instant: merged
    ]);
    assert.equal(seen.writes.length, 0, "nothing is sent before a flush");
    await store.flush();
    assert.equal(seen.writes.length, 1, "one batch, one request");
    assert.equal(seen.writes[0].path, "/write?precision=n");
    assert.equal(
      seen.writes[0].body,
      "readings,serial=SPEM-1 total_power=1200.5,total_current=5.25,phase_a_voltage=230.1 1710028800000000000\n" +
        "readings,serial=SPEM-1 total_energy_kwh=2852.05581 1710028810000000000\n" +
        "readings,serial=SN\\ 2\\,x total_power=7 1710028800000000000\n",
    );
    const { batchSeconds, ...stats } = store.stats();
    assert.deepEqual(stats, {
      samplesWritten: 3,
      pending: 0,
      failedWrites: 0,
      batches: 1,
      backend: "questdb",
    });
    assert.ok(batchSeconds! > 0);
  });
});

Deno.test("the QuestDB store's flush() waits until QuestDB has applied the batch", async () => {
  await withStore(async (store, seen) => {
    store.write([{ serial: "A", ts: D, values: { total_power: 1 } }]);
    await store.flush();
    const polls = seen.queries.filter((q) => q.sql.includes("wal_tables()"));
    assert.equal(polls.length, 4, "polled until the writer reached the committed transaction");
    assert.equal(
      polls[0].sql,
      "SELECT writerTxn, sequencerTxn FROM wal_tables() WHERE name = 'energy'",
    );
    assert.ok(seen.writes[0].body.startsWith("energy,serial=A total_power=1 "));
  }, { table: "energy", lagPolls: 3 });
});

Deno.test("the QuestDB store sends credentials from the URL and surfaces /exec errors", async () => {
  await withStore(async (store, seen, url) => {
    store.write([{ serial: "A", ts: D, values: { total_power: 2 } }]);
    await store.close();
    assert.equal(seen.writes.length, 1, "close() sends what is queued");
    const basic = `Basic ${btoa("admin:quest")}`;
    assert.equal(seen.writes[0].auth, basic);
    assert.ok(seen.queries.every((q) => q.auth === basic));
    const again = await openQuestDbStore(url, { table: "nope" });
    try {
      await assert.rejects(
        again.series("A", "total_power", D, D + 3_600_000, "15m", "avg"),
        /QuestDB rejected the query at position 14: table does not exist/,
      );
      await assert.rejects(again.counterDelta("A", "total_power", D, D + 1), /not a counter/);
      assert.equal(await again.prune(D), 0, "QuestDB keeps raw rows");
    } finally {
      await again.close();
    }
  }, { table: "nope", credentials: "admin:quest" });
});

Deno.test("the QuestDB store's counterUsage() sends the counter SQL and counts the readings", async () => {
  const DAY = 86_400_000;
  const iso = (ms: number) => new Date(ms).toISOString().replace("Z", "000Z");
  const answer = (sql: string) => {
    if (sql.includes("LATEST ON")) {
      return execAnswer(
        sql,
        { serial: "SYMBOL", ts: "TIMESTAMP", v: "DOUBLE" },
        [["M-1", iso(D - 60_000), 100]],
        1,
      );
    }
    if (sql.includes("SAMPLE BY 1d")) {
      return execAnswer(
        sql,
        { ts: "TIMESTAMP", f: "DOUBLE", l: "DOUBLE", lo: "DOUBLE", hi: "DOUBLE", n: "LONG" },
        [
          [iso(D), 101, 110, 101, 110, 144],
          [iso(D + 2 * DAY), 112, 120, 112, 120, 96],
        ],
        0,
      );
    }
    return null;
  };
  await withStore(async (store, seen) => {
    const usage = await store.counterUsage!("M-1", "total_energy_kwh", D, D + 4 * DAY);
    assert.deepEqual(usage, { delta: 20, readings: 240 });
    const sent = seen.queries.slice(1).map((q) => q.sql);
    assert.deepEqual(sent, [
      "SELECT serial, ts, total_energy_kwh v FROM readings WHERE serial = 'M-1' " +
      "AND ts < '2024-03-10T00:00:00.000000Z' AND total_energy_kwh IS NOT NULL " +
      "LATEST ON ts PARTITION BY serial",
      "SELECT ts, first(total_energy_kwh) f, last(total_energy_kwh) l, " +
      "min(total_energy_kwh) lo, max(total_energy_kwh) hi, count() n FROM readings " +
      "WHERE serial = 'M-1' AND ts >= '2024-03-10T00:00:00.000000Z' " +
      "AND ts < '2024-03-14T00:00:00.000000Z' AND total_energy_kwh IS NOT NULL " +
      "SAMPLE BY 1d ALIGN TO CALENDAR",
    ]);
    assert.equal(
      await store.counterDelta("M-1", "total_energy_kwh", D, D + 4 * DAY),
      20,
      "counterDelta() answers the same delta",
    );
  }, { answer });
});
