/**
 * Sign-in under abuse, against a real portal process on loopback: `GET /login` p95 (wrk) while
 * 100 registrations with a wrong code and 200 sign-ins run in parallel, the process's memory
 * after a 1 GB chunked POST, how many of 200 parallel wrong passwords are verified, and how
 * many of 20 sign-ins of a real account with the right password get in while 30 workers send
 * wrong passwords from rotating addresses (target: 20 of 20), once with unknown e-mails and
 * once against 30 other accounts. Needs `wrk` on the PATH.
 * Run: `deno run -A scripts/bench_auth.ts` (`--flood` runs the floods only).
 */
import { startPortalProcess } from "./_portal_process.ts";
import { signInFlood } from "./_sign_in_flood.ts";

const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));

const port = 18000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const dataDir = await Deno.makeTempDir();
const email = "admin@bench.mx";
const password = "Bench-Password-2026";
const portal = await startPortalProcess({
  port,
  dataDir,
  env: { ADMIN_EMAIL: email, ADMIN_PASSWORD: password },
});
const rssKb = (field: "VmRSS" | "VmHWM") => portal.memoryKb(field);
const post = (path: string, body: unknown, address = "") =>
  fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(address ? { "x-forwarded-for": address } : {}),
    },
    body: JSON.stringify(body),
  }).then(async (r) => {
    await r.body?.cancel();
    return r.status;
  });

async function wrkP95(seconds: number): Promise<number> {
  const lua = await Deno.makeTempFile({ suffix: ".lua" });
  await Deno.writeTextFile(
    lua,
    "done = function(s, latency, r) io.write(string.format('P95 %d\\n', latency:percentile(95))) end",
  );
  const res = await new Deno.Command("wrk", {
    args: ["-t1", "-c4", `-d${seconds}s`, "-s", lua, `${base}/login`],
    stdout: "piped",
    stderr: "null",
  }).output();
  const text = new TextDecoder().decode(res.stdout);
  return Number(/P95 (\d+)/.exec(text)?.[1] ?? NaN) / 1000;
}

if (Deno.args.includes("--flood")) {
  await floods();
  await portal.stop();
  await Deno.remove(dataDir, { recursive: true });
  Deno.exit(0);
}

// 1. GET /login alone, then under 100 registrations and 200 sign-ins in parallel.
out(`GET /login p95 alone: ${(await wrkP95(5)).toFixed(1)} ms`);
const load = (async () => {
  const regs = Array.from({ length: 100 }, (_, i) =>
    post("/auth/register", {
      email: `r${i}@bench.mx`,
      password: "Bench-Password-2026",
      full_name: "Ana Pérez",
      phone: "+525512345678",
      role: "user",
      accessCode: "WRNGCD22",
    }, `10.1.${i >> 8}.${i & 255}`));
  // Sign-ins of 200 different accounts from 200 addresses: each one costs a full Argon2 run.
  const logins = Array.from(
    { length: 200 },
    (_, i) =>
      post("/auth/login", { email: `u${i}@bench.mx`, password }, `10.2.${i >> 8}.${i & 255}`),
  );
  return await Promise.all([...regs, ...logins]);
})();
const p95 = await wrkP95(8);
const statuses = await load;
const count = (s: number) => statuses.filter((x) => x === s).length;
out(
  `GET /login p95 with 100 registrations + 200 sign-ins in parallel: ${p95.toFixed(1)} ms ` +
    `(answers: ${count(400)}×400, ${count(401)}×401, ${count(429)}×429, ${count(503)}×503)`,
);

// 2. Memory after a 1 GB chunked POST.
const before = await rssKb("VmRSS");
const chunk = new Uint8Array(1024 * 1024).fill(0x20);
let sent = 0;
const gigabyte = new ReadableStream<Uint8Array>({
  pull(ctrl) {
    if (sent >= 1024) return ctrl.close();
    sent++;
    ctrl.enqueue(chunk);
  },
});
const answer = await fetch(`${base}/auth/login`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: gigabyte,
}).then(async (r) => {
  await r.body?.cancel();
  return String(r.status);
}, (e) => `no answer (${e instanceof Error ? e.message : e})`);
const after = await rssKb("VmRSS");
out(
  `1 GB chunked POST /auth/login: answered ${answer} after ${sent} MB were sent, ` +
    `RSS ${Math.round(before / 1024)} MB before, ${Math.round(after / 1024)} MB after`,
);

// 3. 200 parallel wrong passwords for one account.
const guesses = await Promise.all(
  Array.from({ length: 200 }, () => post("/auth/login", { email, password: "wrong-guess" })),
);
out(
  `200 parallel wrong passwords: ${guesses.filter((s) => s === 401).length} verified (401), ` +
    `${guesses.filter((s) => s === 429).length} throttled (429)`,
);

// 4. A real account signs in while 30 workers send wrong passwords from rotating addresses.
await floods();

await portal.stop();
await Deno.remove(dataDir, { recursive: true });

async function floods() {
  for (const target of ["unknown", "accounts"] as const) {
    const r = await signInFlood({ base, email, password, target, workers: 30, signIns: 20 });
    const tally = Object.entries(r.statuses).map(([s, n]) => `${n}×${s}`).join(", ");
    const flood = Object.entries(r.floodStatuses).map(([s, n]) => `${n}×${s}`).join(", ");
    out(
      `real sign-ins during a 30-worker flood of wrong passwords (${target}): ` +
        `${r.ok} of 20 got in (${tally}), p95 ${r.p95Ms.toFixed(0)} ms; flood answers: ${flood}`,
    );
  }
}
