/**
 * `deno run -A scripts/bench_ingest_processor.ts`: the CPU time ingest's processor spends per
 * message, without the network: the simulator's messages (1,000 meters, the real shapes and
 * mix: NotifyFullStatus once, then NotifyStatus frames, and `status/em:0` / `status/emdata:0`
 * every sixth tick) are made first, as the bytes mqtt.js hands over (a `Buffer` per payload,
 * a string per topic), then handed to an `IngestProcessor` whose store keeps nothing, with its
 * batches written every 5,000 messages. This is the part of `bench_ingest`'s drain between
 * mqtt.js and the store's write call.
 *
 * Options: `--meters M` (default 1000), `--messages N` per run (default 200000), `--runs R`
 * (default 5; the first warms up and is not counted), `--rules K` (K active alert reading
 * rules judge every batch, as `bench_ingest`'s `ingest-rules`). Prints µs per message for each
 * run, the median, and a digest of the samples given to the store (equal digests: the same
 * readings, whatever the code's speed).
 */
import { Buffer } from "node:buffer";
import { parseArgs } from "node:util";
import process from "node:process";
import { createMeter, simIdentity, stepMeter, tickMessages } from "../ingest/sim.ts";
import { IngestProcessor } from "../ingest/processor.ts";
import type { Sample } from "../db/telemetry/mod.ts";
import { benchEvaluator, countingStatus, nullStore, simDirectory } from "./_bench_ingest_roles.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    meters: { type: "string", default: "1000" },
    messages: { type: "string", default: "200000" },
    runs: { type: "string", default: "5" },
    rules: { type: "string", default: "0" },
  },
}).values;

const meters = Number(args.meters);
const count = Number(args.messages);
const out = (line = "") => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

/** The simulator's messages of `meters` meters, tick by tick, `count` of them in all. */
function messages(t0: number): { topic: string; payload: Buffer; at: number }[] {
  const models = Array.from(
    { length: meters },
    (_, i) => createMeter(simIdentity(i + 1).serial, { t: t0 }),
  );
  const list: { topic: string; payload: Buffer; at: number }[] = [];
  for (let tick = 0; list.length < count; tick++) {
    const t = t0 + tick * 1000;
    for (const m of models) {
      stepMeter(m, t);
      for (const msg of tickMessages(m, { tick })) {
        list.push({ topic: msg.topic, payload: Buffer.from(msg.payload), at: t + 5 });
        if (list.length === count) return list;
      }
    }
  }
  return list;
}

/** A short digest of samples (serial, time, values in key order). */
async function digest(samples: Sample[]): Promise<string> {
  const text = samples.map((s) =>
    `${s.serial} ${s.ts} ${
      Object.keys(s.values).sort().map((k) => `${k}=${s.values[k as keyof typeof s.values]}`)
        .join(",")
    }`
  ).join("\n");
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(hash).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const t0 = Date.UTC(2026, 0, 1);
const list = messages(t0);
const directory = simDirectory(meters);
const rules = Number(args.rules);
const perRun: number[] = [];
let lastDigest = "";
for (let run = 0; run < Number(args.runs); run++) {
  const store = nullStore();
  const kept: Sample[] = [];
  const write = store.write.bind(store);
  store.write = (samples) => {
    if (run === 0) kept.push(...samples);
    write(samples);
  };
  const alerts = rules > 0 ? await benchEvaluator(rules, meters) : null;
  let clock = t0;
  const p = new IngestProcessor(
    { directory, status: countingStatus(), store, now: () => clock, onSamples: alerts?.samples },
    { ratePerDevice: 1e9, burstPerDevice: 1e9, silenceMs: 3_600_000 },
  );
  p.preload(await directory.list());
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < list.length; i++) {
    const m = list[i];
    clock = m.at;
    p.handle(m.topic, m.payload, m.at);
    if (i % 5000 === 4999) p.writePending();
  }
  p.writePending();
  const used = process.cpuUsage(cpu);
  const wall = performance.now() - start;
  const us = (used.user + used.system) / list.length;
  if (run === 0) lastDigest = await digest(kept);
  else perRun.push(us);
  out(
    `run ${run}${run === 0 ? " (warm-up)" : ""}: ${us.toFixed(2)} µs CPU per message, ${
      (wall * 1000 / list.length).toFixed(2)
    } µs wall; stored ${p.stats().stored}`,
  );
  await p.close();
}
perRun.sort((a, b) => a - b);
const median = perRun[Math.floor(perRun.length / 2)];
out(
  `median ${
    median?.toFixed(2)
  } µs CPU per message (${list.length} messages, ${meters} meters, ${rules} rules)`,
);
out(JSON.stringify({ usPerMessage: median, runs: perRun, digest: lastDigest }));
