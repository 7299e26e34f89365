/**
 * `deno run -A scripts/bench_ingest.ts`: how many meter messages per second ingest takes
 * end to end (broker → ingest → SQLite store, flushed and queryable), beside a plain
 * mqtt.js subscriber that only counts, on the same broker in the same run; on a real
 * Mosquitto and on the embedded broker (aedes, in its own process). And the memory (RSS)
 * of the ingest process while 1,000 simulated meters stream.
 *
 * Every party is its own process: the broker, the simulator (`scripts/simulate.ts
 * --rate`), and the subscriber under test (this script with `--role plain|ingest`).
 *
 * - drain: the subscriber's persistent session is made, it goes away, the simulator
 *   publishes N messages (queued by the broker for the session), then the subscriber
 *   comes back and drains them; the rate is N over the time from the first message to
 *   the last one handled (for ingest: written and flushed to the store, and a query
 *   answered). This measures the subscriber, not the publisher.
 * - live: the subscriber is connected while the simulator publishes N messages as fast
 *   as the broker acknowledges them; everything shares the machine's cores.
 *
 * First, the CPU time ingest's processor spends per message without the network
 * (`scripts/bench_ingest_processor.ts`: the part between mqtt.js and the store's write call).
 * Drain mode also runs ingest with a store that keeps nothing (`ingest-nostore`), which
 * tells ingest's own cost from the SQLite store's, and ingest judging 20 active alert rules on
 * every reading (`ingest-rules`, beside `ingest` with none). The SQLite store is the one the portal
 * and scripts/ingest.ts open (`openTelemetry`: writer worker, batches of 50,000 samples or
 * a second); ingest flushes it every second.
 *
 * Options: `--messages N` (default 200000), `--meters M` publishing (default 1000),
 * `--memory-meters K` (default 1000), `--memory-seconds S` (default 30),
 * `--brokers mosquitto,embedded`, `--modes drain,live`, `--runs R` (default 3: each
 * measurement repeated, each ingest rate printed beside the plain subscriber's of its run;
 * `cpuUsPerMsg` is the subscriber process's CPU time, all its threads, per message drained;
 * ingest's `threadUsPerMsg` splits it by thread: main, the store's writer worker, V8's helpers),
 * `--store-inline` (the SQLite store writes on ingest's own thread, not in its worker), `--memory-seconds 0` (no
 * memory phase), `--roles ingest,ingest-nostore` (the drain's subscribers measured beside the plain
 * one; default all), `--profile DIR` (drain: each draining subscriber writes a V8 CPU profile
 * into DIR, a `.cpuprofile` per process). Prints a table and, last, the
 * figures as JSON (also written to `.build/bench_ingest.json`).
 */
import { parseArgs } from "node:util";
import mqtt from "mqtt";
import { DEFAULT_SIM_NAMING, simIdentity } from "../ingest/sim.ts";
import { INGEST_CREDENTIALS, roleBroker, roleIngest, rolePlain } from "./_bench_ingest_roles.ts";
import { freeLoopbackPort, startMosquitto } from "../tests/_mosquitto.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    role: { type: "string", default: "bench" },
    url: { type: "string" },
    port: { type: "string" },
    "client-id": { type: "string" },
    expect: { type: "string" },
    meters: { type: "string", default: "1000" },
    messages: { type: "string", default: "200000" },
    "memory-meters": { type: "string", default: "1000" },
    "memory-seconds": { type: "string", default: "30" },
    seconds: { type: "string" },
    brokers: { type: "string", default: "mosquitto,embedded" },
    modes: { type: "string", default: "drain,live" },
    prepare: { type: "boolean", default: false },
    rules: { type: "string", default: "0" },
    store: { type: "string", default: "sqlite" },
    "store-inline": { type: "boolean", default: false },
    runs: { type: "string", default: "3" },
    roles: { type: "string" },
    profile: { type: "string" },
  },
}).values;

const enc = new TextEncoder();
const out = (line = "") => Deno.stdout.writeSync(enc.encode(line + "\n"));
const SCRIPT = new URL(import.meta.url).pathname;
const SIMULATE = new URL("./simulate.ts", import.meta.url).pathname;
const PROCESSOR = new URL("./bench_ingest_processor.ts", import.meta.url).pathname;

// ----- the orchestrator -------------------------------------------------------------------

interface Child {
  proc: Deno.ChildProcess;
  /** The next JSON event with this name. */
  next(event: string): Promise<Record<string, unknown>>;
  events: Record<string, unknown>[];
}

function spawn(script: string, scriptArgs: string[], profileDir?: string): Child {
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const proc = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...profile, script, ...scriptArgs],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const events: Record<string, unknown>[] = [];
  const waiters: { event: string; resolve: (e: Record<string, unknown>) => void }[] = [];
  const closed = (async () => {
    let buffer = "";
    for await (const chunk of proc.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      let i;
      while ((i = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        let e: Record<string, unknown>;
        try {
          e = JSON.parse(line);
        } catch {
          continue;
        }
        const w = waiters.findIndex((x) => x.event === (e.event ?? (e.final ? "final" : "")));
        if (w >= 0) waiters.splice(w, 1)[0].resolve(e);
        else events.push(e);
      }
    }
  })();
  return {
    proc,
    events,
    next(event) {
      const i = events.findIndex((e) => (e.event ?? (e.final ? "final" : "")) === event);
      if (i >= 0) return Promise.resolve(events.splice(i, 1)[0]);
      return Promise.race([
        new Promise<Record<string, unknown>>((resolve) => waiters.push({ event, resolve })),
        closed.then(() => proc.status).then((s) => {
          throw new Error(`${script} ${scriptArgs.join(" ")} ended (${s.code}) before "${event}"`);
        }),
      ]);
    },
  };
}

async function publish(url: string, meters: number, count: number, window = 2) {
  const sim = spawn(SIMULATE, [
    "--url",
    url,
    "--meters",
    String(meters),
    "--rate",
    "--count",
    String(count),
    "--window",
    String(window),
    "--json",
    "--username",
    DEFAULT_SIM_NAMING.username,
  ]);
  const final = await sim.next("final");
  await sim.proc.status;
  // Every meter also said online=true once.
  return { acked: Number(final.acked) + meters, rate: Number(final.perSecond) };
}

interface Row {
  run: number;
  broker: string;
  mode: string;
  subscriber: string;
  messages: number;
  rate: number;
  publishRate?: number;
  rssMb: number;
  extra?: Record<string, unknown>;
}

async function measure(
  broker: string,
  url: string,
  mode: "drain" | "live",
  role: "plain" | "ingest" | "ingest-rules" | "ingest-nostore",
  meters: number,
  messages: number,
): Promise<Row> {
  const clientId = `bench-${role}-${mode}-${crypto.randomUUID().slice(0, 6)}`;
  const base = [
    ...(role === "ingest-nostore"
      ? ["--role", "ingest", "--store", "none"]
      : role === "ingest-rules"
      ? ["--role", "ingest", "--rules", "20"]
      : ["--role", role]),
    ...(args["store-inline"] && role === "ingest" ? ["--store", "inline"] : []),
    ...["--url", url, "--client-id", clientId, "--meters", String(meters)],
  ];
  let published: { acked: number; rate: number };
  let sub: Child;
  if (mode === "drain") {
    const prep = spawn(SCRIPT, [...base, "--prepare"]);
    await prep.next("prepared");
    await prep.proc.status;
    published = await publish(url, meters, messages);
    sub = spawn(SCRIPT, [...base, "--expect", String(published.acked)], args.profile);
    await sub.next("ready");
  } else {
    sub = spawn(SCRIPT, [...base, "--expect", String(messages)]);
    await sub.next("ready");
    published = await publish(url, meters, messages);
  }
  // Live: the subscriber stops at `messages`; the simulator overshoots a little.
  const done = await sub.next("done");
  await sub.proc.status;
  await endSession(url, clientId);
  const { event: _e, rate, rssMb, seconds: _s, received: _r, ...extra } = done;
  return {
    run: 0,
    broker,
    mode,
    subscriber: role,
    messages: Number(done.received),
    rate: Math.round(Number(rate)),
    publishRate: published.rate,
    rssMb: Number(rssMb),
    extra,
  };
}

/**
 * Ends the subscriber's persistent session (a clean-session connection under its client id
 * discards it, MQTT 3.1.1 §3.1.2.4): otherwise the broker keeps queuing every later run's
 * messages for it, without bound on the embedded broker (its sessions live in memory).
 */
async function endSession(url: string, clientId: string): Promise<void> {
  const client = await mqtt.connectAsync(url, {
    clientId,
    clean: true,
    ...INGEST_CREDENTIALS,
    reconnectPeriod: 0,
  });
  await client.endAsync();
}

async function startBroker(name: string, meters: number) {
  if (name === "mosquitto") {
    const m = await startMosquitto({
      users: {
        [INGEST_CREDENTIALS.username]: INGEST_CREDENTIALS.password,
        ...Object.fromEntries(
          Array.from({ length: meters }, (_, i) => simIdentity(i + 1)).map((id) => [
            id.username,
            id.password,
          ]),
        ),
      },
    });
    return { url: m.url, close: () => m.close() };
  }
  const port = freeLoopbackPort();
  const child = spawn(SCRIPT, [
    "--role",
    "broker",
    "--port",
    String(port),
    "--meters",
    String(meters),
  ]);
  const ready = await child.next("ready");
  return {
    url: String(ready.url),
    close: async () => {
      child.proc.kill("SIGTERM");
      await child.proc.status;
    },
  };
}

async function memory(meters: number, seconds: number) {
  const m = await startMosquitto();
  try {
    const ingest = spawn(SCRIPT, [
      "--role",
      "ingest",
      "--url",
      m.url,
      "--client-id",
      "bench-memory",
      "--meters",
      String(meters),
      "--seconds",
      String(seconds + 10),
    ]);
    const ready = await ingest.next("ready");
    const sim = spawn(SIMULATE, [
      "--url",
      m.url,
      "--meters",
      String(meters),
      "--interval-ms",
      "1000",
      "--seconds",
      String(seconds),
      "--json",
    ]);
    const final = await sim.next("final");
    await sim.proc.status;
    const done = await ingest.next("done");
    await ingest.proc.status;
    const samples = ingest.events.filter((e) => e.event === "rss").map((e) => Number(e.rssMb));
    return {
      meters,
      seconds,
      messages: Number(done.received),
      publishedPerSecond: Number(final.perSecond),
      rssIdleMb: Number(ready.rssMb),
      rssMaxMb: Number(done.rssMb),
      rssSamplesMb: samples,
    };
  } finally {
    await m.close();
  }
}

/** The processor's CPU per message without the network (`bench_ingest_processor.ts`). */
async function processorCost(meters: number) {
  const child = spawn(PROCESSOR, ["--meters", String(meters), "--runs", "4"]);
  const last = await child.next("");
  await child.proc.status;
  out(`processor alone: ${Number(last.usPerMessage).toFixed(2)} µs CPU per message (median of 3)`);
  return { usPerMessage: Number(last.usPerMessage), runs: last.runs };
}

async function bench() {
  const messages = Number(args.messages);
  const meters = Number(args.meters);
  const processor = await processorCost(meters);
  const rows: Row[] = [];
  const modes = args.modes.split(",") as ("drain" | "live")[];
  for (const brokerName of args.brokers.split(",")) {
    const broker = await startBroker(brokerName, Math.max(meters, 1));
    try {
      for (let run = 1; run <= Number(args.runs); run++) {
        for (const mode of modes) {
          // In drain mode also ingest with a store that keeps nothing: ingest's own share.
          const roles = mode === "drain"
            ? ["plain", "ingest", "ingest-rules", "ingest-nostore"] as const
            : ["plain", "ingest"] as const;
          const only = args.roles?.split(",");
          for (const role of roles.filter((r) => r === "plain" || !only || only.includes(r))) {
            const row = {
              ...await measure(brokerName, broker.url, mode, role, meters, messages),
              run,
            };
            rows.push(row);
            out(
              `run ${run} ${brokerName.padEnd(9)} ${mode.padEnd(5)} ${role.padEnd(14)} ` +
                `${String(row.messages).padStart(7)} msgs  ${
                  String(row.rate).padStart(7)
                } msg/s  ` +
                `(publisher ${row.publishRate}/s, RSS ${row.rssMb} MB)` +
                `  ${JSON.stringify(row.extra)}`,
            );
          }
        }
      }
    } finally {
      await broker.close();
    }
  }
  const ratios = rows.filter((r) => r.subscriber !== "plain").map((r) => {
    const plain = rows.find((p) =>
      p.subscriber === "plain" && p.broker === r.broker && p.mode === r.mode && p.run === r.run
    )!;
    return {
      run: r.run,
      broker: r.broker,
      mode: r.mode,
      subscriber: r.subscriber,
      ingest: r.rate,
      plain: plain.rate,
      ratio: r.rate / plain.rate,
    };
  });
  for (const r of ratios) {
    out(
      `run ${r.run} ${r.broker} ${r.mode}: ${r.subscriber} ${r.ingest} msg/s = ${
        Math.round(r.ratio * 100)
      } % of the plain subscriber's ${r.plain}`,
    );
  }
  const mem = Number(args["memory-seconds"]) > 0
    ? await memory(Number(args["memory-meters"]), Number(args["memory-seconds"]))
    : null;
  if (mem) {
    out(
      `memory: ingest with ${mem.meters} meters streaming for ${mem.seconds}s (${mem.messages} messages): ` +
        `RSS ${mem.rssIdleMb} MB idle, at most ${mem.rssMaxMb} MB`,
    );
  }
  const figures = { processor, rows, ratios, memory: mem };
  await Deno.mkdir(new URL("../.build/", import.meta.url), { recursive: true });
  await Deno.writeTextFile(
    new URL("../.build/bench_ingest.json", import.meta.url),
    JSON.stringify(figures, null, 2),
  );
  out(JSON.stringify(figures));
}

switch (args.role) {
  case "plain":
    await rolePlain(args);
    break;
  case "ingest":
    await roleIngest(args);
    break;
  case "broker":
    await roleBroker(args);
    break;
  default:
    await bench();
}
