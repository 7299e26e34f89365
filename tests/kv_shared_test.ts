/**
 * One KV file, several processes (portals and ingest processes on one host): a commit that
 * read first and meets another process's write is failed by SQLite at once ("database is
 * locked"); the KV the portal opens (`openKv`) makes it again, so none fails and every id of a
 * shared sequence is handed out once.
 */
import assert from "node:assert/strict";

const WRITER = new URL("./_kv_writer.ts", import.meta.url).pathname;

async function writers(path: string, n: number, raw: boolean) {
  const outs = await Promise.all([0, 1, 2].map(() =>
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--unstable-kv", WRITER, path, String(n), ...(raw ? ["raw"] : [])],
      stdout: "piped",
      stderr: "inherit",
    }).output()
  ));
  return outs.map((o) => JSON.parse(new TextDecoder().decode(o.stdout)));
}

Deno.test("three processes writing one KV file: no commit fails, every id handed out once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/portal.kv`;
    const n = 400;
    const results = await writers(path, n, false);
    assert.deepEqual(results.map((r) => r.failed), [0, 0, 0], JSON.stringify(results));
    const ids = results.flatMap((r) => r.ids).sort((a, b) => a - b);
    assert.deepEqual(ids, Array.from({ length: 3 * n }, (_, i) => i + 1));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
