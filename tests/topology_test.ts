/**
 * The topology of several processes, on this machine (issue 33): a real Mosquitto, two ingest
 * processes (`scripts/ingest.ts`) splitting the meters' messages by a shared subscription and
 * both writing the SQLite telemetry file, two portals (`main.ts` with INGEST=off, reading that
 * file only) on one DATA_DIR KV file, and a round-robin proxy in front (tests/_topology.ts).
 * Simulated meters publish at QoS 1 through Mosquitto while the API is used through the proxy;
 * one portal and one ingest process are killed with SIGKILL mid-run and started again.
 *
 * In the end: every reading the broker acknowledged is in the store, once; the API answered
 * every request through the proxy; the overdue sweep and reconciliation ran once on their
 * schedules, the overdue bill got its late fee and its notice once, the paid bill was paid once
 * (webhook through the proxy); no mail was sent twice.
 */
import assert from "node:assert/strict";
import { billingWorld } from "./_billing_world.ts";
import { part, roundRobinProxy } from "./_topology.ts";
import { freeLoopbackPort, startMosquitto } from "./_mosquitto.ts";
import { receiver } from "./_mail.ts";
import { waitFor } from "./ingest/_helpers.ts";
import { connectSimMeter, type SimMeter } from "../ingest/sim_meter.ts";
import { openSqliteStore } from "../db/telemetry/sqlite.ts";
import { openTelemetry } from "../db/telemetry/open.ts";
import { listUnitBillsOfTenant, type StoredUnitBill } from "../db/bills.ts";
import { listNotifications } from "../db/notifications.ts";
import { readIngestHealth } from "../db/ingest_health.ts";
import { openKv } from "../db/kv.ts";
import { nextRunAt } from "../db/leases.ts";
import { periodBounds, runBilling } from "../services/billing/mod.ts";
import { startOpenpaySandbox } from "../services/payments/mod.ts";
import { parsePeriod } from "../core/periods.ts";

const H = 3_600_000;
const OFFSET = -360;
const MERCHANT = "mtopology0123";
const HOOK = { user: "openpay-hook", password: "hook-password-123" };
const FRAMES = 400;

/** The month before the one `t` falls in, in the business time zone (`YYYY-MM`). */
function monthBefore(t: number): string {
  const d = new Date(t + OFFSET * 60_000);
  const m = d.getUTCMonth() === 0 ? 12 : d.getUTCMonth();
  const y = d.getUTCMonth() === 0 ? d.getUTCFullYear() - 1 : d.getUTCFullYear();
  return `${y}-${String(m).padStart(2, "0")}`;
}

/** A meter's counter over a period: `from` kWh at its start, `to` an hour before its end. */
function counterReadings(serial: string, period: string, from: number, to: number) {
  const b = periodBounds(parsePeriod(period), OFFSET);
  return [
    { serial, ts: b.from + H, values: { total_energy_kwh: from } },
    { serial, ts: (b.from + b.to) / 2, values: { total_energy_kwh: (from + to) / 2 } },
    { serial, ts: b.to - H, values: { total_energy_kwh: to } },
  ];
}

Deno.test({
  name:
    "topology: two portals behind a proxy, two ingest processes, Mosquitto; a portal and an ingest process killed mid-run",
  sanitizeOps: false,
  sanitizeResources: false,
}, async () => {
  const began = Date.now();
  const dir = await Deno.makeTempDir({ prefix: "topology-" });
  const broker = await startMosquitto();
  const mail = await receiver();
  const ports = [freeLoopbackPort(), freeLoopbackPort()];
  const proxy = roundRobinProxy(ports.map((p) => `http://127.0.0.1:${p}`));
  const sandbox = await startOpenpaySandbox({
    merchantId: MERCHANT,
    privateKey: "sk_test",
    webhook: { url: `${proxy.url}/api/webhooks/openpay`, ...HOOK },
    retryMs: 50,
  });
  const secret = "test-secret-test-secret-test-secret-0123";
  const common = {
    DATA_DIR: dir,
    JWT_SECRET: secret,
    MQTT_URL: broker.url,
    UTC_OFFSET_MINUTES: String(OFFSET),
    PATH: Deno.env.get("PATH") ?? "",
    HOME: Deno.env.get("HOME") ?? dir,
  };
  const ingest = ["a", "b"].map((n) =>
    part(`ingest ${n}`, "scripts/ingest.ts", {
      ...common,
      INGEST_SHARE_GROUP: "topology",
      INGEST_CLIENT_ID: `ingest-${n}`,
      LOG_LEVEL: "info",
    }, "ingest subscribed")
  );
  const portals = ports.map((port, i) =>
    part(`portal ${i + 1}`, "main.ts", {
      ...common,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      INGEST: "off",
      TRUST_PROXY: "127.0.0.1",
      LOG_LEVEL: "warn",
      OPENPAY_MERCHANT_ID: MERCHANT,
      OPENPAY_PRIVATE_KEY: "sk_test",
      OPENPAY_API_URL: sandbox.url,
      OPENPAY_WEBHOOK_USER: HOOK.user,
      OPENPAY_WEBHOOK_PASSWORD: HOOK.password,
      SMTP_URL: mail.url,
      MAIL_FROM: "Portal <portal@test.mx>",
    }, "Portal ready")
  );
  const meters: SimMeter[] = [];
  let kv: Deno.Kv | null = null;
  try {
    // The first ingest process makes the data folder's stores (KV, telemetry file, CA).
    await ingest[0].start();
    kv = await openKv(`${dir}/portal.kv`);
    // A station with two metered units and their tenants, billed as the admin would: a month
    // billed 45 days ago (its due date passed: the sweep finds it overdue) and last month.
    const telemetry = openSqliteStore(`${dir}/telemetry.sqlite`);
    const start = Date.now() - 45 * 24 * H;
    const w = await billingWorld({ now: start, kv, telemetry, admin: { email: "admin@topo.mx" } });
    const [old, last] = [monthBefore(start), monthBefore(Date.now())];
    telemetry.write([
      ...counterReadings("SIM-A", old, 800, 900),
      ...counterReadings("SIM-B", old, 700, 820),
      ...counterReadings("SIM-A", last, 1000, 1200),
      ...counterReadings("SIM-B", last, 1000, 1300.5),
    ]);
    await telemetry.flush();
    assert.deepEqual((await runBilling(w.t.deps, w.zoneId, old)).failures, []);
    w.clock.now = Date.now();
    assert.deepEqual((await runBilling(w.t.deps, w.zoneId, last)).failures, []);
    await telemetry.close();
    const billsOf = (tenant: number) => listUnitBillsOfTenant(kv!, w.tenants[tenant]);
    // Each tenant's two bills, the old month's (due 10 business days after 45 days ago) first.
    const byDue = (bills: StoredUnitBill[]) =>
      bills.sort((a, b) => a.payment_due_date!.localeCompare(b.payment_due_date!));
    const [overdueBill] = byDue(await billsOf(0));
    const [, payable] = byDue(await billsOf(1));
    assert.equal(overdueBill.payment_status, "pending");

    await Promise.all([ingest[1].start(), portals[0].start()]);
    await portals[1].start();

    // Meters publish QoS 1 frames (a distinct second each, the counter rising 10 Wh a frame).
    const base = Math.floor(Date.now() / 1000) - 2 * FRAMES;
    for (const serial of ["SIM-A", "SIM-B"]) {
      meters.push(
        await connectSimMeter({
          url: broker.url,
          serial,
          username: serial,
          password: "x",
          reconnectMs: 100,
        }),
      );
    }
    let acked = 0;
    const kwh0 = [1300, 1400];
    const stream = (async () => {
      for (let i = 0; i < FRAMES; i++) {
        await Promise.all(meters.map((m, j) =>
          m.publish(
            `${m.model.prefix}/events/rpc`,
            JSON.stringify({
              method: "NotifyStatus",
              params: {
                ts: base + i + 0.5,
                "em:0": { id: 0, total_act_power: 100 + i },
                "emdata:0": { id: 0, total_act: (kwh0[j] * 1000) + i * 10 },
              },
            }),
          )
        ));
        acked++;
        await new Promise((r) => setTimeout(r, 15));
      }
    })();

    stream.catch(() => {}); // awaited below; a failure before then ends the test anyway

    // The API through the proxy all along: signing in, the fleet's counts, roles.
    const api = (path: string, token: string, init: RequestInit = {}) =>
      fetch(`${proxy.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      });
    const refused: string[] = [];
    const checkOnce = async () => {
      const login = await fetch(`${proxy.url}/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "admin@topo.mx", password: "secret123" }),
      });
      if (login.status !== 200) refused.push(`login ${login.status} ${await login.text()}`);
      else {
        const { access_token } = await login.json();
        const stats = await api("/api/devices/stats", access_token);
        const body = await stats.json();
        if (stats.status !== 200 || body.sensorCount !== 2 || body.stationCount !== 1) {
          refused.push(`stats ${stats.status} ${JSON.stringify(body)}`);
        }
      }
      const users = await api("/api/users", w.tenantTokens[0]);
      await users.body?.cancel();
      if (users.status !== 403) refused.push(`a tenant listed users: ${users.status}`);
      const bills = await api("/api/bills", w.tenantTokens[0]);
      const own = bills.status === 200 ? (await bills.json()).bills : null;
      if (own?.length !== 2) refused.push(`tenant bills ${bills.status} ${JSON.stringify(own)}`);
    };
    let checking = true;
    const checks = (async () => {
      let n = 0;
      while (checking) {
        try {
          await checkOnce();
        } catch (e) {
          refused.push(`request failed: ${e}`);
        }
        n++;
        await new Promise((r) => setTimeout(r, 50));
      }
      return n;
    })();
    // Mid-run: a portal and an ingest process die without a word, and come back.
    await waitFor(() => acked >= FRAMES / 3, "a third of the frames acknowledged", 60_000);
    await Promise.all([portals[0].kill(), ingest[0].kill()]);
    await new Promise((r) => setTimeout(r, 1_000));
    await Promise.all([ingest[0].start(), portals[0].start()]);

    // A tenant pays last month's bill through the proxy; Openpay's webhook comes through it.
    const pay = await api(`/api/tenant-payments/${payable.id}/pay`, w.tenantTokens[1], {
      method: "POST",
      body: "{}",
    });
    const paying = await pay.text();
    assert.equal(pay.status, 200, paying);
    assert.equal(JSON.parse(paying).status, "awaiting_spei_transfer");
    const [charge] = sandbox.charges.keys();
    assert.ok(sandbox.simulateTransfer(charge));
    await sandbox.idle();
    const billNow = async (id: number) =>
      (await listUnitBillsOfTenant(kv!, id === payable.id ? w.tenants[1] : w.tenants[0]))
        .find((b) => b.id === id)!;
    await waitFor(
      async () => (await billNow(payable.id)).payment_status === "paid",
      "paid",
      30_000,
    );

    await stream;
    checking = false;
    const rounds = await checks;
    assert.deepEqual(refused, []);
    assert.ok(rounds >= 3, `${rounds} rounds of API checks`);
    for (const [backend, n] of proxy.answered) assert.ok(n > 0, `${backend} answered nothing`);

    // Nothing acknowledged is lost: each frame is one reading in the file, the counter exact.
    const reader = await openTelemetry({ sqlitePath: `${dir}/telemetry.sqlite`, readOnly: true });
    try {
      const window = [base * 1000, (base + FRAMES) * 1000] as const;
      for (const [j, serial] of ["SIM-A", "SIM-B"].entries()) {
        await waitFor(
          async () =>
            (await reader.counterUsage!(serial, "total_energy_kwh", ...window)).readings === FRAMES,
          `${serial}: all ${FRAMES} readings in the store`,
          30_000,
        );
        const usage = await reader.counterUsage!(serial, "total_energy_kwh", ...window);
        // The window's increase counts from the meter's reading before it (last month's last).
        const before = [1200, 1300.5][j];
        assert.equal(usage.delta.toFixed(3), (kwh0[j] - before + (FRAMES - 1) * 0.01).toFixed(3));
        assert.equal(
          (await reader.latest(serial))?.values.total_energy_kwh,
          kwh0[j] + (FRAMES - 1) * 0.01,
        );
      }
    } finally {
      await reader.close();
    }
    // Both ingest processes took part (the shared subscription split the meters' messages).
    const health = await readIngestHealth(kv, Date.now());
    const instances = JSON.stringify(health);
    for (const id of ["ingest-a", "ingest-b"]) assert.match(instances, new RegExp(id));

    // The sweep ran once: the overdue bill's late fee and notice once; the paid bill paid once.
    await waitFor(
      async () => (await billNow(overdueBill.id)).payment_status === "overdue",
      "overdue",
      30_000,
    );
    const overdue: StoredUnitBill = await billNow(overdueBill.id);
    assert.equal(overdue.late_fee, 5000);
    const notices = async (tenant: number, type: string, bill: number) =>
      (await listNotifications(kv!, w.tenants[tenant], "all", 1000)).filter((n) =>
        n.type === type && n.subject_id === `bill:${bill}`
      ).length;
    assert.equal(await notices(0, "payment_overdue", overdueBill.id), 1);
    assert.equal(await notices(1, "payment_received", payable.id), 1);
    assert.equal((await billNow(payable.id)).payment_status, "paid");
    // Each job's schedule moved once: one due run of the sweep (hourly) and of reconciliation
    // (five minutes) in the whole topology; a takeover's start-up run moves no schedule.
    for (const [job, everyMs] of [["overdue_sweep", H], ["payments_reconcile", 300_000]] as const) {
      const due = await nextRunAt(kv, job);
      assert.ok(due !== null && due >= began + everyMs && due <= Date.now() + everyMs, job);
    }
    // No message went out twice (the outbox's deliveries are claimed once, whoever runs them).
    await waitFor(() => mail.mails.length > 0, "the notices' mails", 30_000);
    await new Promise((r) => setTimeout(r, 2_000));
    const sent = mail.mails.map((m) => `${JSON.stringify(m.to)} ${m.subject} ${m.text}`);
    assert.deepEqual(sent.filter((s, i) => sent.indexOf(s) !== i), []);
  } catch (e) {
    if (e instanceof Error) {
      e.message += [...portals, ...ingest].map((p) =>
        `\n--- ${p.name}\n${p.log.slice(-20).join("\n")}`
      )
        .join("");
    }
    throw e;
  } finally {
    for (const m of meters) await m.stop().catch(() => {});
    await Promise.all([...portals, ...ingest].map((p) => p.stop()));
    kv?.close();
    await proxy.stop();
    await sandbox.stop();
    await mail.stop();
    await broker.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
