import assert from "node:assert/strict";
import { PageCache } from "./page_cache.ts";

Deno.test("a kept page is served with the asking request's nonce", () => {
  const cache = new PageCache();
  cache.set("t1", `<script nonce="n1">a</script><style nonce="n1"></style>`, "n1");
  assert.equal(cache.get("t1", "n2"), `<script nonce="n2">a</script><style nonce="n2"></style>`);
  assert.equal(cache.get("t2", "n2"), null);
});

Deno.test("past its size the least recently used page leaves first", () => {
  const cache = new PageCache(300);
  for (const tag of ["a", "b", "c"]) cache.set(tag, tag.repeat(30), "");
  cache.get("a", ""); // a used again: b is now the oldest
  for (const tag of ["d", "e", "f", "g", "h", "i", "j", "k"]) cache.set(tag, tag.repeat(30), "");
  assert.equal(cache.get("b", ""), null);
  assert.equal(cache.get("k", ""), "k".repeat(30));
});
