/**
 * A process writing a KV file another process also writes, for tests/kv_shared_test.ts: hands
 * out `n` ids of one sequence (`nextId`: read, then a checked commit) and a plain `set` each, on
 * the KV opened as the portal opens it (`openKv`) or, with `raw`, by `Deno.openKv` alone; prints
 * `{ ids, failures }` as JSON.
 *
 * Usage: deno run -A --unstable-kv tests/_kv_writer.ts <path> <n> [raw]
 */
import { nextId, openKv } from "../db/kv.ts";

const [path, n, raw] = Deno.args;
const kv = raw === "raw" ? await Deno.openKv(path) : await openKv(path);
const ids: number[] = [];
const failures: string[] = [];
for (let i = 0; i < Number(n); i++) {
  try {
    const id = await nextId(kv, "shared");
    await kv.set(["written", id], Deno.pid);
    ids.push(id);
  } catch (e) {
    failures.push(String(e));
  }
}
kv.close();
const report = { ids, failures: failures.slice(0, 3), failed: failures.length };
Deno.stdout.writeSync(new TextEncoder().encode(JSON.stringify(report) + "\n"));
