/**
 * The proxied pair of `deno task bench:scale`: two portals (`main.ts`, `INGEST=off`: replicas
 * reading the telemetry file the single portal wrote) on one data folder behind a round-robin
 * proxy, measured with wrk at 32 connections beside one of them behind the same proxy, so that
 * the proxy's own cost is not taken for the pair's. The proxy is nginx when it is installed (a
 * real reverse proxy, as a deployment's); otherwise the topology test's harness
 * (tests/_topology.ts), which reads each answer whole in this process and is itself the
 * bottleneck on large pages (its figures say little of the portals).
 */
import { freePort, type SpawnedPortal, spawnPortal } from "../tests/e2e/_browser.ts";
import { roundRobinProxy } from "../tests/_topology.ts";

/** A running proxy: its address and how to stop it. */
interface RunningProxy {
  url: string;
  stop(): Promise<void>;
}

/** Whether nginx is on this machine. */
async function hasNginx(): Promise<boolean> {
  try {
    const o = await new Deno.Command("nginx", { args: ["-v"], stderr: "null" }).output();
    return o.success;
  } catch {
    return false;
  }
}

/** nginx in the foreground on a free loopback port, round robin over `backends`. */
async function nginxProxy(backends: string[]): Promise<RunningProxy> {
  const dir = await Deno.makeTempDir({ prefix: "bench-nginx-" });
  const port = freePort();
  const servers = backends.map((b) => `server ${new URL(b).host};`).join(" ");
  await Deno.writeTextFile(
    `${dir}/nginx.conf`,
    `worker_processes 1; pid ${dir}/nginx.pid; error_log ${dir}/error.log error;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}; proxy_temp_path ${dir};
  upstream portals { ${servers} keepalive 64; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://portals;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_buffers 16 64k;
    }
  }
}
`,
  );
  const child = new Deno.Command("nginx", {
    args: ["-p", dir, "-c", `${dir}/nginx.conf`, "-g", "daemon off;"],
    stdout: "null",
    stderr: "null",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (await fetch(`${url}/health`).then((r) => (r.body?.cancel(), true), () => false)) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** What wrk measures of a URL with a cookie: requests per second. */
type Rps = (url: string, cookie: string) => Promise<number>;

/** Requests per second of each path through the proxy: one portal, and the pair. */
export interface PairRps {
  /** The proxy measured through: nginx, or the test harness. */
  proxy: "nginx" | "harness";
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
    // Each portal's first answer of a page reads what it keeps in memory (the fleet, the
    // caches of its pages): asked once before the measure, as the single portal's pages were.
    for (const p of portals) {
      for (const { path, cookie } of paths) {
        await fetch(p.url + path, { headers: { cookie } }).then((r) => r.body?.cancel());
      }
    }
    const nginx = await hasNginx();
    const result: PairRps = { proxy: nginx ? "nginx" : "harness", one: {}, pair: {} };
    for (
      const [kind, backends] of [["one", [portals[0].url]], [
        "pair",
        portals.map((p) => p.url),
      ]] as const
    ) {
      const proxy: RunningProxy = nginx
        ? await nginxProxy([...backends])
        : roundRobinProxy([...backends]);
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
