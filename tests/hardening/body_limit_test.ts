/** Every body is read as a stream and cut at its route's limit, chunked or not. */
import assert from "node:assert/strict";
import { testApp } from "../_helpers.ts";

/** A chunked body of `total` bytes in 16 KB chunks that counts how much was pulled. */
function endless(total: number) {
  const chunk = new TextEncoder().encode("a".repeat(16 * 1024));
  const seen = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(ctrl) {
      if (seen.pulled >= total) return ctrl.close();
      seen.pulled += chunk.byteLength;
      ctrl.enqueue(chunk);
    },
  });
  return { stream, seen };
}

const HEADERS = { origin: "http://localhost", host: "localhost", cookie: "auth_language=en" };

for (
  const [path, type] of [
    ["/auth/login", "application/json"],
    ["/login", "application/x-www-form-urlencoded"],
    ["/auth/register", "application/json"],
  ] as const
) {
  Deno.test(`a chunked body to ${path} is cut at 64 KB with a 413 naming the limit`, async () => {
    const t = await testApp();
    const { stream, seen } = endless(32 * 1024 * 1024);
    const res = await t.app.request(`http://localhost${path}`, {
      method: "POST",
      headers: { ...HEADERS, "content-type": type },
      body: stream,
    });
    assert.equal(res.status, 413);
    const body = await res.json();
    assert.match(body.message, /64 KB/);
    assert.ok(seen.pulled < 1024 * 1024, `read ${seen.pulled} bytes`);
    t.close();
  });
}

Deno.test("a declared Content-Length over the limit is refused before reading", async () => {
  const t = await testApp();
  const { stream, seen } = endless(200 * 1024);
  const res = await t.app.request("http://localhost/auth/login", {
    method: "POST",
    headers: { ...HEADERS, "content-type": "application/json", "content-length": "204800" },
    body: stream,
  });
  assert.equal(res.status, 413);
  assert.ok(seen.pulled <= 64 * 1024, `read ${seen.pulled} bytes`);
  t.close();
});

Deno.test("a route's own limit applies: the client log takes at most 16 KB", async () => {
  const t = await testApp();
  const entry = { level: "info", message: "x".repeat(20 * 1024), context: {} };
  const res = await t.app.request("http://localhost/logging", {
    method: "POST",
    headers: { ...HEADERS, "content-type": "application/json" },
    body: JSON.stringify(entry),
  });
  assert.equal(res.status, 413);
  assert.match((await res.json()).message, /16 KB/);
  t.close();
});

Deno.test("a body under the limit is still read whole when chunked", async () => {
  const t = await testApp();
  const json = new TextEncoder().encode(JSON.stringify({ email: "a@b.mx", password: "wrong-one" }));
  const stream = new ReadableStream<Uint8Array>({
    start(ctrl) {
      for (let i = 0; i < json.length; i += 5) ctrl.enqueue(json.slice(i, i + 5));
      ctrl.close();
    },
  });
  const res = await t.app.request("http://localhost/auth/login", {
    method: "POST",
    headers: { ...HEADERS, "content-type": "application/json" },
    body: stream,
  });
  assert.equal(res.status, 401);
  await res.body?.cancel();
  t.close();
});

Deno.test("over a real connection a chunked 8 MB body is answered 413 without reading it all", async () => {
  const t = await testApp();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (req, info) => t.app.fetch(req, { remoteAddr: info.remoteAddr }),
  );
  const { stream } = endless(8 * 1024 * 1024);
  const res = await fetch(`http://127.0.0.1:${server.addr.port}/auth/login`, {
    method: "POST",
    headers: { origin: `http://127.0.0.1:${server.addr.port}`, "content-type": "application/json" },
    body: stream,
  }).catch((e) => e as Error);
  // The server may close the connection while the client still sends: either way no 200/400.
  if (res instanceof Response) {
    assert.equal(res.status, 413);
    await res.body?.cancel();
  }
  await server.shutdown();
  t.close();
});
