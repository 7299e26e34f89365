/**
 * How many of the project's files a request or a message passes through, measured rather than
 * read: `deno run -A scripts/path_files.ts [reading|bill|payment]`.
 *
 * Each path is a Deno test in this file, run twice under `deno test --coverage`: once with only
 * its set-up (`PATH_STEP=setup`), once with the set-up and the path itself. A project file is on
 * the path when one of its lines ran more often in the second run than in the first;
 * the test code, the local Openpay sandbox and the module loading that both runs share do not
 * count. ARCHITECTURE.md's "The path of…" walks the same three paths by name.
 *
 * - `reading`: a meter's frame handled by ingest, made durable in the telemetry store, and the
 *   tenant's `/user` page (cards and chart) answered with it.
 * - `bill`: a billing run posted by an admin for a finished month, and the tenant's bill PDF.
 * - `payment`: Openpay's webhook for a completed SPEI transfer, up to the bill paid.
 */
import assert from "node:assert/strict";

const STEP = Deno.env.get("PATH_STEP");
const out = (line: string) => Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
const WHICH = Deno.env.get("PATH_WHICH");

/** The paths, each a set-up and the path (run only when `PATH_STEP` is `full`). */
const PATHS: Record<string, () => Promise<void>> = {
  async reading() {
    const { stationWorld } = await import("../tests/_station_world.ts");
    const { call } = await import("../tests/_helpers.ts");
    const { IngestProcessor } = await import("../ingest/processor.ts");
    const { createDeviceDirectory, createStatusService } = await import(
      "../services/devices/status.ts"
    );
    const w = await stationWorld();
    const directory = createDeviceDirectory(w.t.deps);
    const status = createStatusService(w.t.deps);
    const processor = new IngestProcessor({ directory, status, store: w.t.deps.telemetry });
    processor.preload(await directory.list());
    const page = await call(w.t, "GET", "/user", { token: w.tenant.token });
    await page.body?.cancel();
    if (STEP === "full") {
      const ts = Math.floor(Date.now() / 1000);
      processor.handle(
        "sensor/sim0001/events/rpc",
        JSON.stringify({
          method: "NotifyStatus",
          params: {
            ts,
            "em:0": { id: 0, total_act_power: 1200, a_voltage: 127 },
            "emdata:0": { id: 0, total_act: 1500 },
          },
        }),
      );
      await processor.durable();
      await w.t.deps.telemetry.flush();
      const res = await call(w.t, "GET", "/user", { token: w.tenant.token });
      assert.equal(res.status, 200);
      await res.text();
    }
    await processor.close();
    await status.close();
    w.t.close();
  },

  async bill() {
    const { billingWorld, meter } = await import("../tests/_billing_world.ts");
    const { call } = await import("../tests/_helpers.ts");
    const w = await billingWorld({ now: Date.parse("2026-12-03T15:00:00.000Z") });
    await meter(w.t, "SIM-A", "2026-11", 200);
    await meter(w.t, "SIM-B", "2026-11", 300);
    if (STEP === "full") {
      const run = await call(w.t, "POST", "/api/unified-billing/process", {
        token: w.admin,
        json: { period: "2026-11", zone_id: w.zoneId },
      });
      assert.equal(run.status, 200, await run.clone().text());
      await run.body?.cancel();
      const pdf = await call(w.t, "GET", "/user/billing/pdf?period=2026-11", {
        token: w.tenantTokens[0],
      });
      assert.equal(pdf.headers.get("content-type"), "application/pdf");
      await pdf.arrayBuffer();
    }
    w.t.close();
  },

  async payment() {
    const { paymentWorld, pay, settled } = await import("../tests/_payment_world.ts");
    const p = await paymentWorld();
    assert.equal((await pay(p, p.billA)).status, 200);
    if (STEP === "full") {
      assert.ok(p.sandbox.simulateTransfer((await p.bill(p.billA)).openpay_charge_id!));
      await settled(p);
      assert.equal((await p.bill(p.billA)).payment_status, "paid");
    }
    await p.close();
  },
};

if (STEP && WHICH) {
  Deno.test({
    name: `path ${WHICH} (${STEP})`,
    sanitizeOps: false,
    sanitizeResources: false,
    fn: PATHS[WHICH],
  });
} else if (import.meta.main) {
  for (const which of Deno.args.length ? Deno.args : Object.keys(PATHS)) {
    const setup = await calls(which, "setup");
    const full = await calls(which, "full");
    const files = [...full].filter(([key, n]) => n > (setup.get(key) ?? 0))
      .map(([key]) => key.split(":")[0]);
    const unique = [...new Set(files)];
    out(`${which}: ${unique.length} files`);
    for (const f of unique.sort()) out(`  ${f}`);
  }
}

/** Per project file and line (`file:line`), how often it ran in one run of the path. */
async function calls(which: string, step: string): Promise<Map<string, number>> {
  const dir = await Deno.makeTempDir();
  const root = new URL("../", import.meta.url).pathname;
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["test", "-A", "--no-check", `--coverage=${dir}`, "scripts/path_files.ts"],
    cwd: root,
    env: { PATH_STEP: step, PATH_WHICH: which },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!run.success) throw new Error(new TextDecoder().decode(run.stderr));
  const lcov = await new Deno.Command(Deno.execPath(), {
    args: ["coverage", dir, "--lcov"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  await Deno.remove(dir, { recursive: true });
  const counts = new Map<string, number>();
  let file = "";
  for (const line of new TextDecoder().decode(lcov.stdout).split("\n")) {
    if (line.startsWith("SF:")) file = line.slice(3).replace(root, "");
    const hit = /^DA:(\d+),(\d+)/.exec(line);
    if (hit && onPath(file)) counts.set(`${file}:${hit[1]}`, Number(hit[2]));
  }
  return counts;
}

/** The product's own files: not tests, scripts, or the local Openpay sandbox. */
function onPath(file: string): boolean {
  return /^(core|db|ingest|services|routes|components|islands)\//.test(file) &&
    !file.includes("/sandbox/") && !/_test\.tsx?$/.test(file);
}
