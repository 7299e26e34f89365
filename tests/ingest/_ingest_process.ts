/**
 * Ingest as a process of its own, for the crash tests: one test meter, the SQLite store the
 * portal opens (writer worker) on the file given, the default batch and flush intervals.
 * Prints "ready" once subscribed, then how many messages it received (`received N`) every
 * 50 ms, and runs until it is killed.
 *
 * Usage: deno run -A tests/ingest/_ingest_process.ts <broker url> <client id> <sqlite path> <serial>
 */
import { startIngest } from "../../ingest/subscriber.ts";
import { openTelemetry } from "../../db/telemetry/open.ts";
import { INGEST_CREDENTIALS, MemoryDirectory, MemoryStatus, testSensor } from "./_helpers.ts";

const [url, clientId, sqlitePath, serial] = Deno.args;
const store = await openTelemetry({ sqlitePath });
const ingest = startIngest({
  url,
  ...INGEST_CREDENTIALS,
  clientId,
  directory: new MemoryDirectory([testSensor(serial)]),
  status: new MemoryStatus(),
  store,
  ratePerDevice: 1e6,
  burstPerDevice: 1e6,
  statsLogMs: 0,
});
await ingest.ready;
const say = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
say("ready");
setInterval(() => say(`received ${ingest.stats().received}`), 50);
