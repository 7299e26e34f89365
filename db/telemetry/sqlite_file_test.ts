/**
 * The SQLite store's file: a damaged file or another database is refused at opening, and a
 * file deleted or replaced under an open store makes writes, reads and `check()` fail
 * instead of going on in a file nobody will open again.
 */
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openSqliteStore } from "./sqlite.ts";
import { TelemetryStoreRefused, TelemetryUnavailableError } from "./mod.ts";

const T0 = Date.UTC(2024, 0, 10);

/** A closed store at `path` holding a day of one meter's readings (many pages). */
async function storeWithData(path: string): Promise<void> {
  const store = openSqliteStore(path);
  for (let i = 0; i < 24 * 60; i++) {
    store.write([{ serial: "M1", ts: T0 + i * 60_000, values: { total_energy_kwh: i / 10 } }]);
  }
  await store.flush();
  await store.close();
}

Deno.test("openSqliteStore() refuses a damaged file, garbage or another database, saying what to do", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const damaged = `${dir}/damaged.sqlite`;
    await storeWithData(damaged);
    const bytes = await Deno.readFile(damaged);
    assert.ok(bytes.length > 8 * 8192, `${bytes.length} bytes`);
    // Garbage over the pages after the first (the schema page stays readable).
    for (let i = 8192; i < bytes.length; i++) bytes[i] = (i * 31) & 0xff;
    await Deno.writeFile(damaged, bytes);

    const garbage = `${dir}/garbage.sqlite`;
    await Deno.writeFile(garbage, new TextEncoder().encode("not a database ".repeat(1000)));

    const other = `${dir}/other.sqlite`;
    const db = new DatabaseSync(other);
    db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)");
    db.close();

    for (
      const [path, why] of [[damaged, /check found|cannot read/], [garbage, /cannot read/], [
        other,
        /tables no telemetry store has: users/,
      ]] as const
    ) {
      const error = (() => {
        try {
          openSqliteStore(path, { worker: true });
        } catch (e) {
          return e;
        }
        return null;
      })();
      assert.ok(error instanceof TelemetryStoreRefused, `${path}: ${error}`);
      assert.match(error.message, new RegExp(`telemetry store ${path} is damaged`));
      assert.match(error.message, why);
      assert.match(error.message, /restore the file from a backup, or move it away/);
    }
    // A sound store opens, with its readings.
    const sound = `${dir}/sound.sqlite`;
    await storeWithData(sound);
    const store = openSqliteStore(sound, { worker: true });
    try {
      assert.ok(
        (await store.counterDelta("M1", "total_energy_kwh", T0, T0 + 86_400_000)) > 140,
      );
      await store.check!();
    } finally {
      await store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

for (const worker of [true, false]) {
  for (const how of ["deleted", "replaced"] as const) {
    Deno.test(`a store whose file is ${how} while open refuses writes, reads and its check (worker: ${worker})`, async () => {
      const dir = await Deno.makeTempDir();
      const path = `${dir}/telemetry.sqlite`;
      const store = openSqliteStore(path, { worker });
      try {
        store.write([{ serial: "M1", ts: T0, values: { total_energy_kwh: 1 } }]);
        await store.flush();
        await store.check!();
        if (how === "deleted") await Deno.remove(path);
        else {
          await storeWithData(`${dir}/other.sqlite`);
          await Deno.rename(`${dir}/other.sqlite`, path);
        }
        const gone = how === "deleted" ? /is gone/ : /was replaced/;
        await assert.rejects(store.check!(), TelemetryUnavailableError);
        await assert.rejects(store.check!(), gone);
        await assert.rejects(store.latest("M1"), TelemetryUnavailableError);
        await assert.rejects(
          store.counterDelta("M1", "total_energy_kwh", T0 - 1, T0 + 1),
          TelemetryUnavailableError,
        );
        // A durable write is refused (ingest then acknowledges nothing).
        store.write([{ serial: "M1", ts: T0 + 60_000, values: { total_energy_kwh: 2 } }]);
        await assert.rejects(store.sync!(), gone);
      } finally {
        await store.close().catch(() => {});
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
}
