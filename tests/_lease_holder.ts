/**
 * A second process for the lease tests: runs the singleton job named by its first argument
 * on the KV file named by its second, marking each run in the store, until it is killed.
 * Prints "holding" once it holds the lease.
 */
import { runAsSingleton } from "../services/platform/singleton.ts";
import type { Logger } from "../services/platform/log.ts";

const [name, path] = Deno.args;
const kv = await Deno.openKv(path);
const log: Logger = { log() {} };
const job = runAsSingleton({ kv, now: Date.now, log }, name, 100, async () => {
  await kv.set(["runs", name, Date.now(), "child"], true);
}, { leaseMs: 1_000, tickMs: 50 });
while (!job.holds()) await new Promise((r) => setTimeout(r, 20));
await Deno.stdout.write(new TextEncoder().encode("holding\n"));
await new Promise(() => {}); // until killed
