/**
 * Backup and restore of a running portal (`main.ts --demo` as its own process, its simulated
 * meters publishing over MQTT): `deno task backup` runs while a billing run writes, the archive
 * is restored into a new data folder, a portal started on it shows every zone, device, user,
 * bill, payment and reading as before and takes the same passwords; a tampered archive is
 * refused and writes nothing.
 */
import assert from "node:assert/strict";
import { freePort, lastMonth, spawnPortal } from "./_browser.ts";
import { loadConfig } from "../../services/platform/config.ts";
import { DEMO_SIM_NAMING, DEMO_ZONE_NAME } from "../../services/demo_devices.ts";
import { createMeter, simIdentity, stepMeter, tickMessages } from "../../ingest/sim.ts";
import mqtt from "mqtt";
import { gunzipSync, gzipSync } from "node:zlib";

const ADMIN = { email: "admin@backup.e2e.mx", password: "backup-admin-pass" };
const TENANT = { email: "inquilino@demo.mx", password: "demo1234" };
const ROOT = new URL("../../", import.meta.url).pathname;

async function signIn(url: string, who: { email: string; password: string }) {
  const res = await fetch(`${url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(who),
  });
  assert.equal(res.status, 200, `${who.email} signs in`);
  const { access_token } = await res.json();
  return { authorization: `Bearer ${access_token}` };
}

async function getJson(url: string, path: string, headers: Record<string, string>) {
  const res = await fetch(`${url}${path}`, { headers });
  assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
  return await res.json();
}

/** Runs a script of the portal with `env`, answering its status and output. */
async function task(script: string, args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: ROOT,
    env,
  }).output();
  const text = new TextDecoder();
  return { code: out.code, stdout: text.decode(out.stdout), stderr: text.decode(out.stderr) };
}

/**
 * Publishes a demo meter's readings (its own credentials, a client id of its own) at QoS 1 as
 * fast as the portal acknowledges them (it does once each reading is stored), until stopped;
 * answers how many were acknowledged.
 */
function publishReadings(mqttPort: number, meter: number) {
  const id = simIdentity(meter, DEMO_SIM_NAMING);
  const model = createMeter(id.serial, { t: Date.now() });
  const client = mqtt.connect(`mqtt://127.0.0.1:${mqttPort}`, {
    clientId: `backup-test-${meter}`,
    username: id.username,
    password: id.password,
    protocolVersion: 4,
    reconnectPeriod: 0,
  });
  let stopped = false;
  let acked = 0;
  const running = (async () => {
    await new Promise<void>((resolve, reject) => {
      client.once("connect", () => resolve());
      client.once("error", reject);
    });
    for (let tick = 0; !stopped; tick++) {
      stepMeter(model, Date.now());
      for (const m of tickMessages(model, { tick, dataEvery: 1 })) {
        await client.publishAsync(m.topic, m.payload, { qos: 1 });
        acked++;
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
      await client.endAsync();
      return acked;
    },
  };
}

/** What the admin and the tenant read: the facts a restore must keep. */
async function state(url: string, month: string) {
  const admin = await signIn(url, ADMIN);
  const tenant = await signIn(url, TENANT);
  const ids = (list: { id: number }[]) => list.map((x) => x.id).sort((a, b) => a - b);
  const { zones } = await getJson(url, "/api/zones", admin);
  const { devices } = await getJson(url, "/api/devices", admin);
  const { users } = await getJson(url, "/api/users", admin);
  const { bills } = await getJson(url, `/api/bills?billing_month=${month}`, admin);
  const summary = await getJson(url, "/api/tenant-payments/summary", tenant);
  const sensors = devices.filter((d: { type: string }) => d.type === "sensor");
  const history = [];
  for (const s of sensors) {
    const { summaries } = await getJson(
      url,
      `/api/measurements/${s.id}/summary?month=${month}`,
      admin,
    );
    // Last month's energy from the rollups. (Its `last` counter is left out: it also reads the
    // month bucket that starts at UTC midnight, which the live meters move.)
    history.push(summaries.total_energy_kwh.delta);
  }
  return {
    zones: zones.map((z: { id: number; name: string }) => [z.id, z.name]),
    devices: ids(devices),
    users: users.map((u: { id: number; email: string }) => [u.id, u.email]),
    bills: bills.map((b: { id: number; total_cost: number; payment_status: string }) => [
      b.id,
      b.total_cost,
      b.payment_status,
    ]),
    summary,
    history,
  };
}

Deno.test("a running portal is backed up during a billing run and ingest, and restored whole", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "portal-backup-" });
  const restored = `${dataDir}-restored`;
  const archive = `${dataDir}.tar.gz`;
  const mqttPort = freePort();
  const env = {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    MQTT_PORT: String(mqttPort),
    METRICS_TOKEN: "backup-test-metrics-token",
  };
  const portal = await spawnPortal({ demo: true, dataDir, env });
  let second: Awaited<ReturnType<typeof spawnPortal>> | null = null;
  try {
    const url = portal.url;
    const admin = await signIn(url, ADMIN);
    const { zones } = await getJson(url, "/api/zones", admin);
    const zone = zones.find((z: { name: string }) => z.name === DEMO_ZONE_NAME);
    const offset = loadConfig({}).utcOffsetMinutes;
    const month = lastMonth(offset).text;
    const bill = (period: string) =>
      fetch(`${url}/unified-billing/process`, {
        method: "POST",
        headers: { ...admin, "content-type": "application/json" },
        body: JSON.stringify({ zone_id: zone.id, period }),
      });
    const run = await bill(month);
    assert.equal(run.status, 200, await run.clone().text());
    await run.body?.cancel();
    // The tenant asks for an SPEI reference: a payment in the processor's hands.
    const tenant = await signIn(url, TENANT);
    const { bills } = await getJson(url, `/api/bills?billing_month=${month}`, tenant);
    const pay = await fetch(`${url}/api/tenant-payments/${bills[0].id}/pay`, {
      method: "POST",
      headers: { ...tenant, "content-type": "application/json", origin: url },
      body: "{}",
    });
    assert.equal(pay.status, 200, await pay.clone().text());
    await pay.body?.cancel();
    const before = await state(url, month);

    // The backup runs while a billing run of this month writes drafts and a meter publishes
    // readings as fast as they are stored.
    const thisMonth = new Date(Date.now() + offset * 60_000).toISOString().slice(0, 7);
    const publisher = publishReadings(mqttPort, 2);
    const [backup, drafts] = await Promise.all([
      task("scripts/backup.ts", [archive], { DATA_DIR: dataDir }),
      bill(thisMonth),
    ]);
    const published = await publisher.stop();
    assert.ok(published > 10, `readings stored during the backup: ${published}`);
    // The running portal's metrics and health see its broker and ingest (main.ts wires them).
    const metrics = await (await fetch(`${url}/metrics`, {
      headers: { authorization: "Bearer backup-test-metrics-token" },
    })).text();
    const value = (name: string) =>
      Number(new RegExp(`^${name} (\\S+)$`, "m").exec(metrics)?.[1] ?? NaN);
    assert.ok(value("portal_ingest_messages_received_total") >= published, "every reading sent");
    assert.ok(value("portal_ingest_samples_stored_total") > 0);
    assert.ok(value("portal_mqtt_connected_clients") >= 4, "three demo meters, the station");
    assert.equal(value("portal_ingest_connected"), 1);
    assert.match(metrics, /portal_billing_runs_total\{outcome="ok"\} 2/);
    const health = await (await fetch(`${url}/health`)).json();
    assert.equal(health.status, "ok");
    assert.equal(health.checks.mqtt.ingest, true);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /Backup written to .* 1 zones?, \d+ bills, 1 payments/);
    assert.equal(drafts.status, 200);
    await drafts.body?.cancel();
    assert.deepEqual(await state(url, month), before, "the portal went on unchanged");

    // A tampered archive is refused and nothing is written.
    const tampered = `${dataDir}-tampered.tar.gz`;
    const tar = gunzipSync(await Deno.readFile(archive));
    const name = new TextEncoder().encode("data/secret.key\0");
    let at = -1; // the entry's header: a 512-byte block that starts with its name
    for (let i = 0; i < tar.length && at < 0; i += 512) {
      if (name.every((b, j) => tar[i + j] === b)) at = i;
    }
    assert.ok(at > 0, "the token secret is in the archive");
    tar[at + 512 + 3] ^= 1; // a byte of its content (after its 512-byte header)
    await Deno.writeFile(tampered, gzipSync(tar));
    const refused = await task("scripts/restore.ts", [tampered], { DATA_DIR: restored });
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /data\/secret\.key does not match its checksum.*Nothing was restored/,
    );
    assert.equal(await Deno.stat(restored).then(() => true, () => false), false);
    await Deno.mkdir(restored);
    await Deno.writeTextFile(`${restored}/note.txt`, "x");
    const busy = await task("scripts/restore.ts", [archive], { DATA_DIR: restored });
    assert.equal(busy.code, 1);
    assert.match(busy.stderr, /is not empty/);
    await Deno.remove(`${restored}/note.txt`);

    const done = await task("scripts/restore.ts", [archive], { DATA_DIR: restored });
    assert.equal(done.code, 0, done.stderr);
    await portal.close();
    // On the same address: the tenant's receipt link names it.
    second = await spawnPortal({
      dataDir: restored,
      port: Number(new URL(url).port),
      env: { MQTT_PORT: String(mqttPort) },
    });
    const after = await state(second.url, month);
    assert.deepEqual(after, before);
    assert.ok(after.history.every((kwh: number) => kwh > 0), "last month's readings are there");
  } finally {
    await portal.close();
    await second?.close();
    for (const path of [dataDir, restored, archive, `${dataDir}-tampered.tar.gz`]) {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    }
  }
});
