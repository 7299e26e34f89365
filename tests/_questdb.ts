/**
 * A QuestDB `/exec` answer as the server sends it: `columns` maps each column's name to its
 * type, in order; `timestamp` is the index of the designated timestamp column (-1: none).
 */
export function execAnswer(
  query: string,
  columns: Record<string, string>,
  dataset: unknown[][],
  timestamp = -1,
) {
  return {
    query,
    columns: Object.entries(columns).map(([name, type]) => ({ name, type })),
    timestamp,
    dataset,
    count: dataset.length,
  };
}

/** A stand-in QuestDB on 127.0.0.1 and how to make it fail. */
export interface FakeQuestDb {
  url: string;
  /** From now on every request is answered 500 with QuestDB's error JSON. */
  fail(): void;
  stop(): Promise<void>;
}

/**
 * A QuestDB stand-in that takes ILP writes (`/write`) and answers `/exec` as QuestDB does for
 * an empty table: the CREATE TABLE, the WAL status (everything applied), and no rows for any
 * other query; after `fail()`, 500 with an error for everything (a QuestDB that broke).
 */
export function fakeQuestDb(): FakeQuestDb {
  let failing = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    await req.body?.cancel();
    if (failing) {
      return Response.json({ error: "could not open read-only [table=readings]" }, { status: 500 });
    }
    if (url.pathname === "/write") return new Response(null, { status: 204 });
    const sql = url.searchParams.get("query") ?? "";
    if (sql.startsWith("CREATE TABLE")) return Response.json({ ddl: "OK" });
    if (sql.includes("wal_tables()")) {
      return Response.json(
        execAnswer(sql, { writerTxn: "LONG", sequencerTxn: "LONG" }, [[1, 1]]),
      );
    }
    return Response.json(execAnswer(sql, { ts: "TIMESTAMP" }, []));
  });
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    fail: () => failing = true,
    stop: () => server.shutdown(),
  };
}
