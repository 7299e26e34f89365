/** A Deno KV store for storage tests: in memory, closed when the test is done. */

/** Runs `fn` with a fresh in-memory KV and closes it afterwards, even when `fn` throws. */
export async function withKv<T>(fn: (kv: Deno.Kv) => Promise<T>): Promise<T> {
  const kv = await Deno.openKv(":memory:");
  try {
    return await fn(kv);
  } finally {
    kv.close();
  }
}
