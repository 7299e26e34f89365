import assert from "node:assert/strict";
import { startIngest } from "../../ingest/subscriber.ts";
import {
  BROKERS,
  connectMeters,
  MemoryDirectory,
  MemoryStatus,
  MemoryStore,
  testIngestOptions,
  testSensor,
  waitFor,
} from "./_helpers.ts";

for (const { name, start } of BROKERS) {
  Deno.test(`${name}: status flips offline on online false, on the Last Will and on silence`, async () => {
    const said = testSensor("SAYS-FALSE");
    const dies = testSensor("DIES-1");
    const quiet = testSensor("QUIET-1");
    const directory = new MemoryDirectory([said, dies, quiet]);
    const status = new MemoryStatus();
    const broker = await start(directory);
    const ingest = startIngest(
      testIngestOptions(broker, { directory, status, store: new MemoryStore() }, {
        silenceMs: 1_500,
      }),
    );
    await ingest.ready;
    const [a, b, c] = await connectMeters(broker, [said, dies, quiet]);
    const history = (serial: string) =>
      status.events.filter((e) => e.serial === serial).map((e) =>
        e.reason ? `${e.status}:${e.reason}` : e.status
      );
    try {
      await waitFor(
        () => [said, dies, quiet].every((d) => status.current(d.serial)?.status === "online"),
        "all three online",
      );

      // Under load a meter may have gone silent once while the others connected: each step
      // reads the history from its own start.
      const since = (serial: string) => {
        const start = history(serial).length;
        return () => history(serial).slice(start);
      };
      const saidSince = since(said.serial);
      const diesSince = since(dies.serial);
      // 1. The meter itself says false on its online topic.
      await a.tick();
      await a.publish(`${said.prefix}/online`, "false");
      await waitFor(() => status.current(said.serial)?.status === "offline", "offline on false");
      await a.tick();
      await waitFor(() => status.current(said.serial)?.status === "online", "online again");
      assert.deepEqual(saidSince().filter((e) => e !== "online").slice(0, 1), [
        "offline:online_false",
      ]);
      assert.equal(status.current(said.serial)?.status, "online");

      // 2. The socket dies without DISCONNECT: the broker publishes the Last Will (false).
      await b.tick();
      await b.die();
      await waitFor(() => status.current(dies.serial)?.status === "offline", "offline on will");
      assert.equal(diesSince().at(-1), "offline:online_false");

      // 3. Connected but silent: offline after silenceMs; speaking again brings it back.
      await waitFor(() => status.current(quiet.serial)?.status === "offline", "silence", 6_000);
      const silentFor = status.current(quiet.serial)!.ts - status.lastSeen.get(quiet.serial)!;
      assert.ok(
        silentFor >= 1_500 && silentFor < 3_000,
        `offline after ${silentFor} ms of silence`,
      );
      assert.equal(status.current(quiet.serial)?.reason, "silence");
      await c.tick();
      await waitFor(() => status.current(quiet.serial)?.status === "online", "back online");
      assert.deepEqual(history(quiet.serial).slice(-2), ["offline:silence", "online"]);
      assert.equal(ingest.stats().errors.status, 0);
    } finally {
      await Promise.all([a.stop(), c.stop()]);
      await ingest.stop();
      await broker.close();
    }
  });
}
