/**
 * The proxied pair of `deno task bench:scale`: two portals (`main.ts`, `INGEST=off`: replicas
 * reading the telemetry file the single portal wrote) on one data folder behind a round-robin
 * proxy (tests/_topology.ts, the topology test's), measured with wrk at 32 connections beside
 * one of them behind the same proxy, so that the proxy's own cost is not taken for the pair's.
 */
import { type SpawnedPortal, spawnPortal } from "../tests/e2e/_browser.ts";
import { roundRobinProxy } from "../tests/_topology.ts";

/** What wrk measures of a URL with a cookie: requests per second. */
type Rps = (url: string, cookie: string) => Promise<number>;

/** Requests per second of each path through the proxy: one portal, and the pair. */
export interface PairRps {
  one: Record<string, number>;
  pair: Record<string, number>;
}

/** Starts the pair on `dataDir` (already seeded and opened once) and measures `paths`. */
export async function pairRps(
  dataDir: string,
  paths: { path: string; cookie: string }[],
  rps: Rps,
): Promise<PairRps> {
  const portals: SpawnedPortal[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      portals.push(
        await spawnPortal({
          dataDir,
          env: { DATA_DIR: dataDir, INGEST: "off", LOG_LEVEL: "error", TRUST_PROXY: "127.0.0.1" },
          timeoutMs: 300_000,
        }),
      );
    }
    const result: PairRps = { one: {}, pair: {} };
    for (
      const [kind, backends] of [["one", [portals[0].url]], [
        "pair",
        portals.map((p) => p.url),
      ]] as const
    ) {
      const proxy = roundRobinProxy([...backends]);
      try {
        for (const { path, cookie } of paths) {
          result[kind][path] = await rps(proxy.url + path, cookie);
        }
      } finally {
        await proxy.stop();
      }
    }
    return result;
  } finally {
    for (const p of portals) await p.close();
  }
}
