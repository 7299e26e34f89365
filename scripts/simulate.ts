/**
 * `deno task simulate --meters N`: simulated Shelly Pro 3EM meters on an MQTT broker.
 * Each meter signs in with its own credentials, sets its Last Will (`online` = `false`),
 * says `online` = `true` (retained), and publishes the real message shapes under
 * `sensor/<serial lowercased>`: NotifyStatus partial frames on `events/rpc`, and the
 * full `status/em:0` and `status/emdata:0` objects, three phases on daily load curves,
 * counters in Wh that only grow. Now and then a meter's connection drops (the broker
 * publishes its Will) and it comes back.
 *
 * Options:
 *   --meters N            how many meters (default 10)
 *   --first N             number of the first meter (default 1)
 *   --url URL             broker (default $MQTT_URL or mqtt://127.0.0.1:1883)
 *   --interval-ms MS      time between a meter's ticks (default 10000)
 *   --serial PATTERN      serial pattern, {n} = meter number (default SIM{n}: SIM0001, ...)
 *   --username PATTERN    username pattern, {serial} {serial_lower} {n} (default {serial_lower})
 *   --username-prefix P   shorthand for --username P{serial_lower}
 *   --password PATTERN    password pattern (default sim-{serial_lower}-pass)
 *   --status-every K      full status objects every K ticks (default 6; 0 = never)
 *   --drop-chance P       chance per tick that a meter's connection drops (default 0.001)
 *   --seconds S           stop S seconds after the meters connected (default: run until Ctrl-C)
 *   --rate                benchmark mode: every meter publishes as fast as the broker
 *                         acknowledges (--window ticks in flight each). Frames carry the
 *                         real time to 10 ms as the meter does: use many meters, so that
 *                         each one's frames stay apart in time
 *   --window W            in-flight ticks per meter in --rate mode (default 2)
 *   --count C             --rate mode: stop after C messages in all
 *   --json                print one JSON line per report instead of text
 */
import { parseArgs } from "node:util";
import { connectSimMeter, type SimMeter } from "../ingest/sim_meter.ts";
import { DEFAULT_SIM_NAMING, simIdentity } from "../ingest/sim.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    meters: { type: "string", default: "10" },
    first: { type: "string", default: "1" },
    url: { type: "string" },
    "interval-ms": { type: "string", default: "10000" },
    serial: { type: "string", default: DEFAULT_SIM_NAMING.serial },
    username: { type: "string" },
    "username-prefix": { type: "string" },
    password: { type: "string", default: DEFAULT_SIM_NAMING.password },
    "status-every": { type: "string", default: "6" },
    "drop-chance": { type: "string", default: "0.001" },
    seconds: { type: "string" },
    rate: { type: "boolean", default: false },
    window: { type: "string", default: "2" },
    count: { type: "string" },
    json: { type: "boolean", default: false },
  },
}).values;

const enc = new TextEncoder();
const out = (line: string) => Deno.stdout.writeSync(enc.encode(line + "\n"));

function number(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isFinite(n) || n < min) {
    Deno.stderr.writeSync(enc.encode(`--${name} must be a number ≥ ${min}, got ${value}\n`));
    Deno.exit(2);
  }
  return n;
}

const meters = number("meters", args.meters, 1);
const first = number("first", args.first, 0);
const intervalMs = number("interval-ms", args["interval-ms"], 1);
const statusEvery = number("status-every", args["status-every"], 0);
const dropChance = number("drop-chance", args["drop-chance"], 0);
const windowSize = number("window", args.window, 1);
const seconds = args.seconds === undefined ? Infinity : number("seconds", args.seconds, 0);
const count = args.count === undefined ? Infinity : number("count", args.count, 1);
const url = args.url ?? Deno.env.get("MQTT_URL") ?? "mqtt://127.0.0.1:1883";
const naming = {
  serial: args.serial,
  username: args.username ??
    (args["username-prefix"] !== undefined
      ? `${args["username-prefix"]}{serial_lower}`
      : DEFAULT_SIM_NAMING.username),
  password: args.password,
};

// --seconds counts from when the meters are connected, so a slow start does not eat the run.
let started = performance.now();
let deadline = started + seconds * 1000;
let stopping = false;
const stop = () => stopping = true;
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);

const report = (final: boolean, sims: SimMeter[], refused: number) => {
  const acked = sims.reduce((n, m) => n + m.acked(), 0);
  const elapsed = (performance.now() - started) / 1000;
  const figures = {
    final,
    meters: sims.length,
    refused,
    connected: sims.filter((m) => m.client.connected).length,
    acked,
    seconds: Math.round(elapsed * 10) / 10,
    perSecond: Math.round(acked / Math.max(elapsed, 0.001)),
  };
  if (args.json) out(JSON.stringify(figures));
  else {
    out(
      `${figures.seconds}s: ${figures.connected}/${figures.meters} meters connected, ` +
        `${acked} messages acknowledged (${figures.perSecond}/s)` +
        (refused ? `, ${refused} refused` : ""),
    );
  }
};

/** Connects the meters, 50 at a time; meters whose connection is refused are counted. */
async function connectAll(): Promise<{ sims: SimMeter[]; refused: number }> {
  const sims: SimMeter[] = [];
  let refused = 0;
  for (let i = 0; i < meters && !stopping; i += 50) {
    const batch = Array.from({ length: Math.min(50, meters - i) }, (_, k) => first + i + k);
    const results = await Promise.allSettled(batch.map((n) => {
      const id = simIdentity(n, naming);
      return connectSimMeter({
        url,
        ...id,
        statusEvery,
        reconnectMs: 2_000 + Math.floor(Math.random() * 3_000),
      });
    }));
    for (const r of results) {
      if (r.status === "fulfilled") sims.push(r.value);
      else {
        refused++;
        if (refused <= 5) {
          Deno.stderr.writeSync(enc.encode(`a meter could not connect: ${r.reason}\n`));
        }
      }
    }
  }
  return { sims, refused };
}

async function runRate(sims: SimMeter[]): Promise<void> {
  let published = 0;
  const loop = async (m: SimMeter) => {
    while (!stopping && published < count && performance.now() < deadline) {
      // Not `published += await ...`: that would read `published` before the await.
      const n = await m.tick().catch(() => 0);
      published += n;
    }
  };
  await Promise.all(sims.flatMap((m) => Array.from({ length: windowSize }, () => loop(m))));
}

async function runLive(sims: SimMeter[]): Promise<void> {
  const timers = sims.map((m) => {
    // Spread the meters over the interval, as real meters are.
    const tick = () => {
      if (stopping) return;
      if (Math.random() < dropChance) m.dropConnection();
      else if (m.client.connected) m.tick().catch(() => {});
    };
    let interval: ReturnType<typeof setInterval> | undefined;
    const start = setTimeout(() => {
      tick();
      interval = setInterval(tick, intervalMs);
    }, Math.random() * intervalMs);
    return () => {
      clearTimeout(start);
      clearInterval(interval);
    };
  });
  while (!stopping && performance.now() < deadline) {
    await new Promise((r) =>
      setTimeout(r, Math.min(1_000, Math.max(0, deadline - performance.now())))
    );
  }
  for (const clear of timers) clear();
}

const { sims, refused } = await connectAll();
if (sims.length === 0) {
  Deno.stderr.writeSync(enc.encode(`no meter could connect to ${url}\n`));
  Deno.exit(1);
}
started = performance.now();
deadline = started + seconds * 1000;
const reporter = setInterval(() => report(false, sims, refused), 10_000);
if (args.rate) await runRate(sims);
else await runLive(sims);
clearInterval(reporter);
await Promise.all(sims.map((m) => m.stop().catch(() => {})));
report(true, sims, refused);
Deno.removeSignalListener("SIGINT", stop);
Deno.removeSignalListener("SIGTERM", stop);
