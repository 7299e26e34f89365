import assert from "node:assert/strict";
import { execAnswer } from "../../tests/_questdb.ts";
import {
  checkTableName,
  cleanPartial,
  counterBucketsFrom,
  counterBucketsSql,
  createTableSql,
  firstTsFrom,
  type KeyWindow,
  lastBeforeSql,
  latestTsSql,
  latestValuesFrom,
  latestValuesSql,
  parseExecAnswer,
  parseTimestamp,
  pointsFrom,
  questDbEndpoint,
  readingsSql,
  seriesSql,
  sqlString,
  sqlTimestamp,
  valuesFrom,
  walStatusFrom,
  walStatusSql,
} from "./questdb_sql.ts";
import type { MeasurementKey } from "../../core/devices.ts";

const D = Date.UTC(2024, 2, 10);
const DAY = 86_400_000;
/** Key `key` of meter `serial` from D to `to` (a day by default). */
const keyWindow = (serial: string, key: MeasurementKey, to = D + DAY): KeyWindow => ({
  serial,
  key,
  from: D,
  to,
});

Deno.test("sqlTimestamp() and sqlString() write literals QuestDB parses", () => {
  assert.equal(sqlTimestamp(D), "'2024-03-10T00:00:00.000000Z'");
  assert.equal(sqlTimestamp(D + 1234), "'2024-03-10T00:00:01.234000Z'");
  assert.equal(sqlString("SN-1"), "'SN-1'");
  assert.equal(sqlString("O'Brien"), "'O''Brien'");
  assert.throws(() => sqlTimestamp(Number.NaN), RangeError);
});

Deno.test("createTableSql() declares a symbol, a DOUBLE per key, a designated ts and dedup", () => {
  const sql = createTableSql("readings");
  assert.ok(
    sql.startsWith("CREATE TABLE IF NOT EXISTS readings (serial SYMBOL, total_power DOUBLE, "),
  );
  assert.ok(sql.includes(", phase_c_returned_kwh DOUBLE, ts TIMESTAMP) "));
  assert.ok(sql.endsWith("TIMESTAMP(ts) PARTITION BY DAY WAL DEDUP UPSERT KEYS(ts, serial)"));
  assert.equal(sql.match(/ DOUBLE/g)?.length, 27);
  assert.throws(() => createTableSql("readings; DROP TABLE x"), TypeError);
  assert.throws(() => checkTableName("1abc"), TypeError);
});

Deno.test("seriesSql() samples one key by calendar bucket over [from, to)", () => {
  assert.equal(
    seriesSql("readings", keyWindow("SN'1", "total_power"), "15m", "avg"),
    "SELECT ts, avg(total_power) v FROM readings WHERE serial = 'SN''1' " +
      "AND ts >= '2024-03-10T00:00:00.000000Z' AND ts < '2024-03-11T00:00:00.000000Z' " +
      "AND total_power IS NOT NULL SAMPLE BY 15m ALIGN TO CALENDAR",
  );
  assert.equal(
    seriesSql("t", keyWindow("A", "phase_a_voltage"), "1M", "last"),
    "SELECT ts, last(phase_a_voltage) v FROM t WHERE serial = 'A' " +
      "AND ts >= '2024-03-10T00:00:00.000000Z' AND ts < '2024-03-11T00:00:00.000000Z' " +
      "AND phase_a_voltage IS NOT NULL SAMPLE BY 1M ALIGN TO CALENDAR",
  );
});

Deno.test("counter queries ask for bucket figures, readings and the reading before", () => {
  assert.equal(
    counterBucketsSql("readings", keyWindow("A", "total_energy_kwh"), "1h"),
    "SELECT ts, first(total_energy_kwh) f, last(total_energy_kwh) l, min(total_energy_kwh) lo, " +
      "max(total_energy_kwh) hi, count() n FROM readings WHERE serial = 'A' " +
      "AND ts >= '2024-03-10T00:00:00.000000Z' AND ts < '2024-03-11T00:00:00.000000Z' " +
      "AND total_energy_kwh IS NOT NULL SAMPLE BY 1h ALIGN TO CALENDAR",
  );
  assert.equal(
    readingsSql("readings", keyWindow("A", "total_energy_kwh", D + 1000)),
    "SELECT ts, total_energy_kwh v FROM readings WHERE serial = 'A' " +
      "AND ts >= '2024-03-10T00:00:00.000000Z' AND ts < '2024-03-10T00:00:01.000000Z' " +
      "AND total_energy_kwh IS NOT NULL ORDER BY ts",
  );
  assert.equal(
    lastBeforeSql("readings", "A", "total_energy_kwh", D),
    "SELECT serial, ts, total_energy_kwh v FROM readings WHERE serial = 'A' " +
      "AND ts < '2024-03-10T00:00:00.000000Z' AND total_energy_kwh IS NOT NULL " +
      "LATEST ON ts PARTITION BY serial",
  );
});

Deno.test("latest and WAL queries use LATEST ON, last_not_null and wal_tables()", () => {
  assert.equal(
    latestTsSql("readings", "A"),
    "SELECT serial, ts FROM readings WHERE serial = 'A' LATEST ON ts PARTITION BY serial",
  );
  const sql = latestValuesSql("readings", "A", D - DAY, D);
  assert.ok(
    sql.startsWith(
      "SELECT last_not_null(total_power) total_power, last_not_null(total_apparent_power) ",
    ),
  );
  assert.ok(sql.endsWith(
    "FROM readings WHERE serial = 'A' AND ts >= '2024-03-09T00:00:00.000000Z' AND ts <= '2024-03-10T00:00:00.000000Z'",
  ));
  assert.equal(sql.match(/last_not_null\(/g)?.length, 27);
  assert.equal(
    walStatusSql("readings"),
    "SELECT writerTxn, sequencerTxn FROM wal_tables() WHERE name = 'readings'",
  );
});

Deno.test("parseExecAnswer() reads a SAMPLE BY answer into points", () => {
  const answer = parseExecAnswer(execAnswer(
    "SELECT ts, avg(total_power) v FROM readings ...",
    { ts: "TIMESTAMP", v: "DOUBLE" },
    [
      ["2024-03-10T00:00:00.000000Z", 20.0],
      ["2024-03-10T00:15:00.000000Z", 40.5],
      ["2024-03-10T01:00:00.000000Z", null],
    ],
    0,
  ));
  assert.deepEqual(pointsFrom(answer), [
    { ts: D, value: 20 },
    { ts: D + 15 * 60_000, value: 40.5 },
  ]);
});

Deno.test("parseExecAnswer() reads counter buckets, readings, latest and WAL answers", () => {
  const buckets = counterBucketsFrom(parseExecAnswer(execAnswer(
    "...",
    { ts: "TIMESTAMP", f: "DOUBLE", l: "DOUBLE", lo: "DOUBLE", hi: "DOUBLE", n: "LONG" },
    [["2024-03-10T00:00:00.000000Z", 100.5, 101.25, 100.5, 101.25, 90]],
    0,
  )));
  assert.deepEqual(buckets, [{
    ts: D,
    first: 100.5,
    last: 101.25,
    min: 100.5,
    max: 101.25,
    count: 90,
  }]);
  const readings = parseExecAnswer(execAnswer(
    "...",
    { ts: "TIMESTAMP", v: "DOUBLE" },
    [["2024-03-10T00:00:05.000000Z", 1.5], ["2024-03-10T00:00:35.000000Z", 1.75]],
    0,
  ));
  assert.deepEqual(valuesFrom(readings), [1.5, 1.75]);
  assert.equal(firstTsFrom(readings), D + 5000);
  assert.equal(
    firstTsFrom(
      parseExecAnswer(execAnswer("", { ts: "TIMESTAMP" }, [], 0)),
    ),
    null,
  );
  const latest = parseExecAnswer(execAnswer(
    "...",
    { total_power: "DOUBLE", total_energy_kwh: "DOUBLE", phase_a_pf: "DOUBLE" },
    [[1200.5, 2852.05581, null]],
  ));
  assert.deepEqual(latestValuesFrom(latest), { total_power: 1200.5, total_energy_kwh: 2852.05581 });
  const wal = parseExecAnswer(
    execAnswer("...", { writerTxn: "LONG", sequencerTxn: "LONG" }, [[3, 4]]),
  );
  assert.deepEqual(walStatusFrom(wal), { writerTxn: 3, sequencerTxn: 4 });
  assert.deepEqual(parseExecAnswer({ ddl: "OK" }), { columns: [], rows: [] });
});

Deno.test("parseExecAnswer() throws QuestDB's error with its position, and TypeError for junk", () => {
  assert.throws(
    () =>
      parseExecAnswer({
        query: "SELECT * FROM table;",
        error: "function, literal or constant is expected",
        position: 8,
      }),
    /QuestDB rejected the query at position 8: function, literal or constant is expected/,
  );
  assert.throws(() => parseExecAnswer("nope"), TypeError);
  assert.throws(
    () => parseExecAnswer({ columns: [{ name: "a", type: "LONG" }], dataset: [[1, 2]] }),
    TypeError,
  );
  assert.throws(() => parseExecAnswer({ columns: [{ name: 1 }], dataset: [] }), TypeError);
});

Deno.test("parseTimestamp() reads microsecond text and epoch microseconds as ms", () => {
  assert.equal(parseTimestamp("2024-03-10T00:00:00.000000Z"), D);
  assert.equal(parseTimestamp("2024-03-10T00:00:01.234567Z"), D + 1234);
  assert.equal(parseTimestamp("2024-03-10T00:00:01Z"), D + 1000);
  assert.equal(parseTimestamp(D * 1000 + 999), D);
  assert.throws(() => parseTimestamp("10/03/2024"), TypeError);
});

Deno.test("cleanPartial() trusts first and last only when min and max show no reset", () => {
  const base = { ts: D, count: 10 };
  assert.deepEqual(cleanPartial({ ...base, first: 10, last: 12, min: 10, max: 12 }), {
    first: 10,
    last: 12,
    increase: 2,
  });
  assert.deepEqual(cleanPartial({ ...base, first: 10, last: 12, min: 9.995, max: 12.004 }), {
    first: 10,
    last: 12,
    increase: 2,
  }, "jitter");
  assert.equal(
    cleanPartial({ ...base, first: 10, last: 1.5, min: 0.1, max: 11 }),
    null,
    "reset to zero",
  );
  assert.equal(
    cleanPartial({ ...base, first: 10, last: 12, min: 10, max: 30 }),
    null,
    "drop from a peak",
  );
  assert.deepEqual(cleanPartial({ ...base, count: 1, first: 5, last: 5, min: 5, max: 5 }), {
    first: 5,
    last: 5,
    increase: 0,
  });
});

Deno.test("questDbEndpoint() derives the ILP sender config and the REST base from a URL or config", () => {
  assert.deepEqual(questDbEndpoint("http://127.0.0.1:9000"), {
    senderConfig: "http::addr=127.0.0.1:9000;protocol_version=1;auto_flush=off;",
    restBase: "http://127.0.0.1:9000",
    authorization: undefined,
  });
  assert.deepEqual(questDbEndpoint("https://admin:qu%3Best@db.example:9443/"), {
    senderConfig:
      "https::addr=db.example:9443;protocol_version=1;auto_flush=off;username=admin;password=qu;;est;",
    restBase: "https://db.example:9443",
    authorization: `Basic ${btoa("admin:qu;est")}`,
  });
  assert.equal(questDbEndpoint("http://questdb").restBase, "http://questdb:9000");
  assert.deepEqual(questDbEndpoint("http::addr=db.local:9009;username=ops;password=a;;b;"), {
    senderConfig:
      "http::addr=db.local:9009;protocol_version=1;auto_flush=off;username=ops;password=a;;b;",
    restBase: "http://db.local:9009",
    authorization: `Basic ${btoa("ops:a;b")}`,
  });
  assert.deepEqual(questDbEndpoint("https::addr=db.local;token=T0k"), {
    senderConfig: "https::addr=db.local:9000;protocol_version=1;auto_flush=off;token=T0k;",
    restBase: "https://db.local:9000",
    authorization: "Bearer T0k",
  });
  assert.throws(() => questDbEndpoint("http::username=x;"), /needs addr/);
  assert.throws(() => questDbEndpoint("http::addr"), /without '='/);
  assert.throws(() => questDbEndpoint("questdb:9000"), TypeError);
  assert.throws(() => questDbEndpoint("not a url"), TypeError);
});
