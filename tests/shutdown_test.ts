/**
 * The portal as its own process: SIGTERM ends it within 10 s whatever is running, here the
 * offline sweep of its meters (their silence has just ended) and a request whose body never
 * ends.
 */
import assert from "node:assert/strict";
import { startPortalProcess } from "../scripts/_portal_process.ts";
import { benchUnits, createBenchMeter, createBenchStation } from "../scripts/_bench_devices.ts";
import { freeLoopbackPort } from "./_mosquitto.ts";
import { createUser } from "../db/users.ts";
import { markOnline } from "../db/device_status.ts";

const SILENCE_S = 10;

/** 40 stations of 10 meters, each meter with a tenant; every other meter was connected. */
async function seed(dataDir: string): Promise<void> {
  const kv = await Deno.openKv(`${dataDir}/portal.kv`);
  const now = Date.now();
  try {
    for (let s = 1; s <= 40; s++) {
      const units = benchUnits(10, (n) => `U${n}`);
      const st = await createBenchStation(kv, {
        name: `Estación ${s}`,
        serial: `ST-${s}`,
        stationId: `st-${s}`,
        zoneId: 1,
        units,
        at: now,
      });
      for (const [u, unit] of units.entries()) {
        const tenant = await createUser(kv, {
          email: `t${s}-${u}@shutdown.mx`,
          full_name: `Inquilino ${s}-${u}`,
          role: "user",
          password_hash: "x",
        }, now);
        const meter = await createBenchMeter(kv, st.id, {
          name: `M${s}-${u}`,
          serial: `M${s}-${u}`,
          unitId: unit.id,
          tenantId: tenant.id,
          at: now,
        });
        if (u % 2 === 0) await markOnline(kv, meter.id, now - 3_600_000);
      }
    }
  } finally {
    kv.close();
  }
}

Deno.test("SIGTERM as an offline storm starts, with a request that never ends, ends the portal within 10 s", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "portal-shutdown-" });
  let conn: Deno.TcpConn | null = null;
  try {
    await seed(dataDir);
    const port = freeLoopbackPort();
    const log: string[] = [];
    const portal = await startPortalProcess({
      port,
      dataDir,
      env: {
        MQTT_PORT: String(freeLoopbackPort()),
        DEVICE_SILENCE_SECONDS: String(SILENCE_S),
        LOG_LEVEL: "info",
        ADMIN_EMAIL: "admin@shutdown.mx",
        ADMIN_PASSWORD: "shutdown-admin-1",
      },
      onLog: (line) => log.push(line),
    });
    const ready = performance.now();
    // A sign-in whose JSON body starts and never ends: its handler waits for the rest.
    conn = await Deno.connect({ hostname: "127.0.0.1", port });
    await conn.write(
      new TextEncoder().encode(
        "POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
          "Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n",
      ),
    );
    // The meters' silence ends SILENCE_S after the start; the sweep comes within a second.
    await new Promise((r) => setTimeout(r, ready + (SILENCE_S + 1.5) * 1000 - performance.now()));
    const signalled = performance.now();
    portal.child.kill("SIGTERM");
    const killer = setTimeout(() => portal.child.kill("SIGKILL"), 60_000);
    await portal.child.status;
    clearTimeout(killer);
    const seconds = (performance.now() - signalled) / 1000;
    assert.ok(seconds < 10, `ended ${seconds.toFixed(1)} s after SIGTERM\n${log.join("\n")}`);
  } finally {
    conn?.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
