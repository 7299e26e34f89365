/**
 * The portal as its own process for the benchmarks that measure the process itself (its
 * memory, its sign-in under abuse): `main.ts` on loopback with the V8 flags `deno task start`
 * gives it (deno.json), its broker on a port of its own, logging errors only.
 */

/** A started portal and what it printed up to its ready line (the demo's accounts). */
export interface PortalProcess {
  child: Deno.ChildProcess;
  output: string;
  /** A field of `/proc/<pid>/status` in kB (VmRSS: resident now, VmHWM: the peak). */
  memoryKb(field: "VmRSS" | "VmHWM"): Promise<number>;
  /** CPU time the process has used so far (user plus system, every thread), in seconds. */
  cpuSeconds(): Promise<number>;
  /** Ends the process and waits for it. */
  stop(): Promise<void>;
}

/**
 * Reads a child's stdout until it printed `marker`; then reads on in the background (`drained`
 * ends with the output), so that a full pipe never blocks the child.
 */
export async function readUntil(
  child: Deno.ChildProcess,
  marker: string,
): Promise<{ output: string; drained: Promise<void> }> {
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let output = "";
  while (!output.includes(marker)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the process ended before it printed "${marker}":\n${output}`);
    output += value;
  }
  const drained = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })().catch(() => {});
  return { output, drained };
}

/** The V8 flags of `deno task start` (deno.json). */
function v8Flags(): string[] {
  const start: string = JSON.parse(Deno.readTextFileSync("deno.json")).tasks.start;
  return start.match(/--v8-flags=\S+/g) ?? [];
}

/**
 * Starts `main.ts` (with `--demo` when asked) on 127.0.0.1:`port`, the broker on `port` +
 * 1000, data in `dataDir`, plus `env`; resolves once it printed that it is ready. Its output
 * is read on, so that a full pipe never blocks it.
 */
export async function startPortalProcess(
  o: {
    port: number;
    dataDir: string;
    demo?: boolean;
    env?: Record<string, string>;
    /** Called with each log line (stderr) as it arrives; without it stderr is discarded. */
    onLog?: (line: string) => void;
  },
): Promise<PortalProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...v8Flags(), "main.ts", ...(o.demo ? ["--demo"] : [])],
    env: {
      PORT: String(o.port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: o.dataDir,
      MQTT_PORT: String(o.port + 1000),
      MQTT_TLS_PORT: "0",
      LOG_LEVEL: "error",
      // wrk's connections all come from one address; let the sign-in throttle tell them apart.
      TRUST_PROXY: "127.0.0.1",
      ...o.env,
    },
    stdout: "piped",
    stderr: o.onLog ? "piped" : "null",
  }).spawn();
  if (o.onLog) readLines(child.stderr, o.onLog);
  const { output } = await readUntil(child, "Portal ready");
  return {
    child,
    output,
    async memoryKb(field) {
      const text = await Deno.readTextFile(`/proc/${child.pid}/status`);
      return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)![1]);
    },
    async cpuSeconds() {
      // Fields 14 and 15 of /proc/<pid>/stat (after the name in parentheses): utime, stime.
      const stat = await Deno.readTextFile(`/proc/${child.pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    },
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const CLOCK_TICKS = 100;

/** Hands each line of `stream` to `onLine` until it ends (in the background). */
function readLines(stream: ReadableStream<BufferSource>, onLine: (line: string) => void): void {
  (async () => {
    let buffer = "";
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        onLine(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    }
  })().catch(() => {});
}
