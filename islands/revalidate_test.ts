/** The refreshes' conditional requests, against a real HTTP server. */
import assert from "node:assert/strict";
import { revalidating } from "./revalidate.ts";

Deno.test("a refresh sends the last ETag, gets null for a 304 and follows a new answer's tag", async () => {
  let version = 1;
  const seen: (string | null)[] = [];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, (req) => {
    seen.push(req.headers.get("if-none-match"));
    const tag = `W/"v${version}"`;
    if (req.headers.get("if-none-match") === tag) return new Response(null, { status: 304 });
    return new Response(`page ${version}`, { headers: { etag: tag } });
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/user`;
    const get = revalidating(`W/"v1"`);
    assert.equal(await get(url), null);
    version = 2;
    const changed = await get(url);
    assert.equal(await changed?.text(), "page 2");
    assert.equal(await get(url), null);
    assert.deepEqual(seen, [`W/"v1"`, `W/"v1"`, `W/"v2"`]);
  } finally {
    await server.shutdown();
  }
});
