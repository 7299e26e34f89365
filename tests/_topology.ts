/**
 * Parts of the topology test (tests/topology_test.ts): the portal and the ingest process as
 * child processes of their own (started, killed with SIGKILL, started again with the same
 * settings), and a small round-robin reverse proxy in front of the portals, standing in for
 * Caddy: each request goes to the next portal, and to the one after when a portal cannot be
 * reached (Caddy's `lb_try_duration` does the same), with `X-Forwarded-For` set.
 */

const ROOT = new URL("../", import.meta.url).pathname;

/** A process of the topology. */
export interface Part {
  name: string;
  /** Its log lines (stderr) and output (stdout) so far, for a failure's message. */
  log: string[];
  /** Starts it (again) and resolves once it printed `ready`. */
  start(): Promise<void>;
  /** SIGKILL: no shutdown, nothing flushed. */
  kill(): Promise<void>;
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>;
}

/** A process of `deno run -A <script>` with `env`, ready once a line contains `ready`. */
export function part(
  name: string,
  script: string,
  env: Record<string, string>,
  ready: string,
  timeoutMs = 60_000,
): Part {
  let child: Deno.ChildProcess | null = null;
  const log: string[] = [];
  const pump = (stream: ReadableStream<BufferSource>, seen: (line: string) => void) =>
    (async () => {
      let buffer = "";
      for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
        buffer += chunk;
        let nl;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          log.push(line);
          seen(line);
        }
      }
    })().catch(() => {});
  const end = async (signal: Deno.Signal) => {
    if (!child) return;
    const c = child;
    child = null;
    try {
      c.kill(signal);
    } catch { /* gone already */ }
    await c.status;
  };
  return {
    name,
    log,
    async start() {
      const c = new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", script],
        cwd: ROOT,
        env,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      child = c;
      const started = Promise.withResolvers<void>();
      const seen = (line: string) => line.includes(ready) && started.resolve();
      pump(c.stdout, seen);
      pump(c.stderr, seen);
      c.status.then((s) =>
        started.reject(new Error(`${name} exited (${s.code}):\n${log.slice(-30).join("\n")}`))
      );
      const timer = setTimeout(
        () => started.reject(new Error(`${name} not ready:\n${log.slice(-30).join("\n")}`)),
        timeoutMs,
      );
      try {
        await started.promise;
      } finally {
        clearTimeout(timer);
      }
    },
    kill: () => end("SIGKILL"),
    stop: () => end("SIGTERM"),
  };
}

/** The proxy: its address and how many requests each portal answered. */
export interface Proxy {
  url: string;
  answered: Map<string, number>;
  stop(): Promise<void>;
}

/**
 * A reverse proxy on 127.0.0.1 sending requests to `backends` in turn; a request a portal
 * cannot take (connection refused or cut) goes to the next one, 502 when none can.
 */
export function roundRobinProxy(backends: string[]): Proxy {
  let next = 0;
  const answered = new Map(backends.map((b) => [b, 0]));
  const forward = async (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => {
    const url = new URL(req.url);
    const body = req.body ? await req.arrayBuffer() : undefined;
    const headers = new Headers(req.headers);
    headers.set("x-forwarded-for", info.remoteAddr.hostname);
    headers.set("x-forwarded-proto", "http");
    headers.set("x-forwarded-host", url.host);
    // Plain answers from the portals (this server compresses for its own clients).
    headers.set("accept-encoding", "identity");
    for (let tries = 0; tries < backends.length; tries++) {
      const backend = backends[next++ % backends.length];
      let res: Response;
      try {
        res = await fetch(`${backend}${url.pathname}${url.search}`, {
          method: req.method,
          headers,
          body,
          redirect: "manual",
        });
      } catch {
        continue; // This portal is down (killed, restarting): the next one.
      }
      answered.set(backend, answered.get(backend)! + 1);
      // Read whole (a harness, not a streaming proxy), sent on with its own length.
      const bytes = await res.arrayBuffer();
      const out = new Headers(res.headers);
      out.delete("content-length");
      out.delete("content-encoding");
      return new Response(bytes, { status: res.status, headers: out });
    }
    return new Response("no portal answers", { status: 502 });
  };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, forward);
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    answered,
    stop: () => server.shutdown(),
  };
}
