/**
 * A real Mosquitto for tests and benchmarks: started on a free loopback port with a
 * temporary configuration (persistence on, so a stop and start keeps persistent sessions
 * and their queued messages), stopped, restarted on the same port, and cleaned up.
 *
 * The binary is `MOSQUITTO_BIN` or `/usr/sbin/mosquitto`. Without `users` the listener
 * allows anonymous clients; with `users` it uses a password file made by
 * `mosquitto_passwd` (`MOSQUITTO_PASSWD_BIN`, default `mosquitto_passwd` on the PATH).
 */

/** What {@link startMosquitto} accepts. */
export interface MosquittoOptions {
  /** Username → password; when set, anonymous clients are refused. */
  users?: Record<string, string>;
  /** Extra configuration lines, appended as they are. */
  extraConfig?: string[];
}

/** A running (or stopped) Mosquitto. */
export interface Mosquitto {
  /** `mqtt://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** The temporary folder with the configuration, the log and the persistence file. */
  dir: string;
  /** The process id while running, or null. */
  pid(): number | null;
  /** Stops the broker cleanly (SIGTERM: it writes its persistence file). */
  stop(): Promise<void>;
  /** Starts it again on the same port and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it if running and removes the temporary folder. */
  close(): Promise<void>;
  /** The broker's log so far (for failure messages). */
  log(): Promise<string>;
}

/** The binary used for Mosquitto. */
export const MOSQUITTO_BIN = Deno.env.get("MOSQUITTO_BIN") ?? "/usr/sbin/mosquitto";

/** A TCP port that was free on 127.0.0.1 a moment ago. */
export function freeLoopbackPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts Mosquitto and resolves once it accepts TCP connections. */
export async function startMosquitto(options: MosquittoOptions = {}): Promise<Mosquitto> {
  const dir = await Deno.makeTempDir({ prefix: "mosquitto-test-" });
  const port = freeLoopbackPort();
  const lines = [
    `listener ${port} 127.0.0.1`,
    // Tests may run as root; Mosquitto would otherwise switch to a user that cannot
    // write the temporary folder.
    "user root",
    "persistence true",
    `persistence_location ${dir}/`,
    "autosave_interval 0",
    // Never drop messages queued for a persistent session (the default drops past 1000).
    "max_queued_messages 0",
    "max_inflight_messages 0",
    "set_tcp_nodelay true",
    `log_dest file ${dir}/mosquitto.log`,
    "log_type error",
    "log_type warning",
    "log_type notice",
  ];
  if (options.users) {
    const passwordFile = `${dir}/passwords`;
    await Deno.writeTextFile(passwordFile, "");
    const bin = Deno.env.get("MOSQUITTO_PASSWD_BIN") ?? "mosquitto_passwd";
    for (const [user, password] of Object.entries(options.users)) {
      const out = await new Deno.Command(bin, {
        args: ["-b", passwordFile, user, password],
        stdout: "null",
        stderr: "piped",
      }).output();
      if (!out.success) {
        throw new Error(
          `mosquitto_passwd failed for ${user}: ${new TextDecoder().decode(out.stderr)}`,
        );
      }
    }
    lines.push("allow_anonymous false", `password_file ${passwordFile}`);
  } else {
    lines.push("allow_anonymous true");
  }
  lines.push(...(options.extraConfig ?? []));
  const configFile = `${dir}/mosquitto.conf`;
  await Deno.writeTextFile(configFile, lines.join("\n") + "\n");

  let child: Deno.ChildProcess | null = null;
  let stderr: Promise<string> = Promise.resolve("");

  const readLog = async () => {
    try {
      return await Deno.readTextFile(`${dir}/mosquitto.log`);
    } catch {
      return "";
    }
  };

  const start = async () => {
    if (child) return;
    const proc = new Deno.Command(MOSQUITTO_BIN, {
      args: ["-c", configFile],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    child = proc;
    stderr = new Response(proc.stderr).text();
    let exited = false;
    proc.status.then(() => exited = true);
    const deadline = Date.now() + 10_000;
    while (true) {
      if (exited) {
        child = null;
        throw new Error(`mosquitto exited at start: ${await stderr}\n${await readLog()}`);
      }
      try {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        conn.close();
        return;
      } catch {
        if (Date.now() > deadline) {
          proc.kill("SIGKILL");
          await proc.status;
          child = null;
          throw new Error(`mosquitto did not accept connections on ${port} within 10 s`);
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };

  const stop = async () => {
    const proc = child;
    if (!proc) return;
    child = null;
    try {
      proc.kill("SIGTERM");
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        proc.kill("SIGKILL");
      } catch {
        // already gone
      }
    }, 5_000);
    await proc.status;
    clearTimeout(timer);
    await stderr;
  };

  await start();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    dir,
    pid: () => (child as Deno.ChildProcess | null)?.pid ?? null,
    stop,
    start,
    async close() {
      await stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
    log: readLog,
  };
}
