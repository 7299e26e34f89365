/**
 * A sign-in flood against a running portal (over HTTP, addresses given by X-Forwarded-For, so
 * the portal must trust the caller as its proxy): `workers` loops send wrong passwords, each
 * from an address of its own that is never used twice, either for unknown e-mails or for
 * `workers` other accounts; meanwhile a real account signs in `signIns` times with the right
 * password from one address the portal has not seen. Accounts are created through the admin's
 * API (`email`, `password` are the admin's).
 */

/** What {@link signInFlood} measured. */
interface FloodResult {
  /** Real sign-ins answered 200. */
  ok: number;
  /** The real sign-ins' answers by status. */
  statuses: Record<string, number>;
  /** The flood's answers by status. */
  floodStatuses: Record<string, number>;
  /** 95th percentile of a real sign-in's answer time (ms). */
  p95Ms: number;
}

let run = 0;

/** Runs one flood and answers what the real account saw. */
export async function signInFlood(o: {
  base: string;
  email: string;
  password: string;
  target: "unknown" | "accounts";
  workers: number;
  signIns: number;
}): Promise<FloodResult> {
  const tag = `${Date.now().toString(36)}${run++}`;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(`${o.base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: r.status, retryAfter: Number(r.headers.get("retry-after") ?? 1), r };
  };
  // The admin's token (the admin may be waiting out an earlier benchmark's throttle).
  let token = "";
  for (let i = 0; i < 30 && !token; i++) {
    const { status, retryAfter, r } = await post("/auth/login", o, {
      "x-forwarded-for": "10.99.0.1",
    });
    if (status === 200) token = (await r.json()).access_token;
    else {
      await r.body?.cancel();
      await new Promise((res) => setTimeout(res, retryAfter * 1000));
    }
  }
  if (!token) throw new Error("the admin could not sign in");
  const create = async (email: string, password: string) => {
    const { status, r } = await post("/api/users", {
      email,
      password,
      full_name: "Bench Tenant",
      phone: "5512345678",
      role: "user",
      is_active: true,
    }, { authorization: `Bearer ${token}` });
    if (status !== 201 && status !== 200) throw new Error(`creating ${email}: ${await r.text()}`);
    await r.body?.cancel();
  };
  const real = { email: `real-${tag}@bench.mx`, password: "Real-Tenant-Pass-77" };
  await create(real.email, real.password);
  const others: string[] = [];
  if (o.target === "accounts") {
    for (let i = 0; i < o.workers; i++) {
      others.push(`other-${tag}-${i}@bench.mx`);
      await create(others[i], `Other-Pass-${i}-xyz`);
    }
  }

  const floodStatuses: Record<string, number> = {};
  let address = 0;
  let stop = false;
  const worker = async (w: number) => {
    for (let n = 0; !stop; n++) {
      address++;
      const email = o.target === "unknown" ? `nobody-${tag}-${w}-${n}@bench.mx` : others[w];
      const { status, r } = await post("/auth/login", { email, password: "wrong-guess-1" }, {
        "x-forwarded-for": `10.${100 + (address >> 16)}.${(address >> 8) & 255}.${address & 255}`,
      });
      await r.body?.cancel();
      floodStatuses[status] = (floodStatuses[status] ?? 0) + 1;
    }
  };
  const flood = Array.from({ length: o.workers }, (_, w) => worker(w));
  await new Promise((r) => setTimeout(r, 1_000));
  const statuses: Record<string, number> = {};
  const times: number[] = [];
  for (let i = 0; i < o.signIns; i++) {
    const started = performance.now();
    const { status, r } = await post("/auth/login", real, { "x-forwarded-for": "10.98.0.1" });
    await r.body?.cancel();
    times.push(performance.now() - started);
    statuses[status] = (statuses[status] ?? 0) + 1;
    await new Promise((res) => setTimeout(res, 250));
  }
  stop = true;
  await Promise.all(flood);
  times.sort((a, b) => a - b);
  return {
    ok: statuses[200] ?? 0,
    statuses,
    floodStatuses,
    p95Ms: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))],
  };
}
