/** A build that runs once per store: the indexes kept with each write, built for older stores. */

/**
 * Wraps `build` so that it runs once per Deno KV handle: later calls share its promise; a build
 * that fails is tried again on the next call.
 */
export function oncePerStore(
  build: (kv: Deno.Kv) => Promise<void>,
): (kv: Deno.Kv) => Promise<void> {
  const built = new WeakMap<Deno.Kv, Promise<void>>();
  return (kv) => {
    let p = built.get(kv);
    if (!p) {
      p = build(kv).catch((e) => {
        built.delete(kv);
        throw e;
      });
      built.set(kv, p);
    }
    return p;
  };
}
