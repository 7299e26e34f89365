/**
 * Sensor certificates through the API: status with health, the three downloads, renewal,
 * Verify Certificates on the stored certificate, the key sealed in the store, bad ids.
 */
import assert from "node:assert/strict";
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { call, testsWith } from "./_helpers.ts";
import { stationWorld } from "./_station_world.ts";
import { getCertificateEntry, putCertificate } from "../db/certificates.ts";
import { forgetSensorCertificate, sealKey, sensorCertificate } from "../services/devices/mod.ts";
import { openCertificateAuthority } from "../services/platform/pki.ts";
import { getUser } from "../db/users.ts";
import { issueToken } from "../services/platform/tokens.ts";

const test = testsWith(stationWorld, (w) => w.t.close());

const DAY = 86_400_000;

async function get(w: Awaited<ReturnType<typeof stationWorld>>, path: string, method = "GET") {
  const res = await call(w.t, method, path, { token: w.admin.token });
  return {
    status: res.status,
    res,
    body: res.headers.get("content-type")?.includes("json") ? await res.json() : await res.text(),
  };
}

test("GET /api/devices/{id}/certificate issues once and answers expiry, days, issuer and fingerprint", async (w) => {
  const a = await get(w, `/api/devices/${w.sensorId}/certificate`);
  assert.equal(a.status, 200);
  assert.equal(a.body.valid, true);
  assert.equal(a.body.health, "green");
  assert.equal(a.body.message, "Certificate is valid.");
  assert.equal(a.body.details.issuer, "CN=Energy Portal CA");
  assert.match(a.body.details.fingerprint, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  assert.ok(
    [364, 365].includes(a.body.details.days_remaining),
    String(a.body.details.days_remaining),
  );
  const expires = Date.parse(a.body.details.expires_on);
  assert.ok(Math.abs(expires - (Date.now() + 365 * DAY)) < 60_000);
  const b = await get(w, `/api/devices/${w.sensorId}/certificate`);
  assert.equal(b.body.details.fingerprint, a.body.details.fingerprint, "same certificate");
});

test("certificate downloads are user_ca.pem, client.pem and client.key attachments that belong together", async (w) => {
  const files: Record<string, string> = {};
  for (
    const [kind, name] of [["ca", "user_ca.pem"], ["cert", "client.pem"], ["key", "client.key"]]
  ) {
    const r = await get(w, `/api/devices/${w.sensorId}/certificates/${kind}`);
    assert.equal(r.status, 200);
    assert.equal(r.res.headers.get("content-type"), "application/x-pem-file");
    assert.equal(r.res.headers.get("content-disposition"), `attachment; filename="${name}"`);
    files[kind] = r.body;
  }
  assert.equal(files.ca, w.t.deps.pki.caPem);
  const ca = new X509Certificate(files.ca);
  const cert = new X509Certificate(files.cert);
  assert.ok(cert.checkIssued(ca) && cert.verify(ca.publicKey));
  assert.equal(cert.subject, "CN=sim0001");
  const spki = (k: ReturnType<typeof createPublicKey>) =>
    k.export({ type: "spki", format: "der" }).toString("hex");
  assert.equal(spki(createPublicKey(createPrivateKey(files.key))), spki(cert.publicKey));
  const status = await get(w, `/api/devices/${w.sensorId}/certificate`);
  assert.equal(status.body.details.fingerprint, cert.fingerprint256);
});

test("renewing replaces the certificate and the new one verifies", async (w) => {
  const before = (await get(w, `/api/devices/${w.sensorId}/certificate`)).body;
  const renewed = await get(w, `/api/devices/${w.sensorId}/certificate/renew`, "POST");
  assert.equal(renewed.status, 200);
  assert.equal(renewed.body.message, "Certificate renewed");
  assert.notEqual(renewed.body.details.fingerprint, before.details.fingerprint);
  const cert = new X509Certificate(
    (await get(w, `/api/devices/${w.sensorId}/certificates/cert`)).body,
  );
  assert.equal(cert.fingerprint256, renewed.body.details.fingerprint);
  const v = await get(w, `/api/devices/${w.sensorId}/certificate/verify`, "POST");
  assert.equal(v.body.valid, true);
  assert.match(v.body.message, /^Certificates verified: signed by the portal's CA/);
});

test("certificate health turns yellow under 30 days, red under 7 and invalid once expired", async (w) => {
  const issued = await sensorCertificate(w.t.deps, w.sensorId);
  const admin = (await getUser(w.t.deps.kv, w.admin.id))!;
  const at = async (now: number) => {
    w.t.deps.now = () => now;
    const token = await issueToken(w.t.deps.secret, admin, now, 3600);
    const res = await call(w.t, "GET", `/api/devices/${w.sensorId}/certificate`, { token });
    assert.equal(res.status, 200);
    return await res.json();
  };
  const yellow = await at(issued.not_after - 20 * DAY);
  assert.deepEqual([yellow.valid, yellow.health, yellow.details.days_remaining], [
    true,
    "yellow",
    20,
  ]);
  assert.equal(yellow.message, "Certificate will expire soon. Consider renewing.");
  const red = await at(issued.not_after - 3 * DAY);
  assert.deepEqual([red.valid, red.health, red.details.days_remaining], [true, "red", 3]);
  assert.equal(red.message, "Certificate expires soon! Please renew immediately.");
  const expired = await at(issued.not_after + DAY);
  assert.deepEqual([expired.valid, expired.health], [false, "red"]);
  assert.equal(expired.message, "The certificate has expired. Renew it.");
});

test("Verify Certificates finds a certificate of another CA and a key that does not match", async (w) => {
  const deps = w.t.deps;
  const mine = await sensorCertificate(deps, w.sensorId);
  const other = await (await openCertificateAuthority(null)).issueClient("sim0001");
  const store = async (cert: typeof mine, keyPem: string) => {
    const { key_pem: _k, ...rest } = cert;
    await putCertificate(deps.kv, w.sensorId, {
      ...rest,
      key_sealed: await sealKey(deps.secret, keyPem, w.sensorId),
      issued_at: Date.now(),
    });
  };
  const refusals: [typeof mine, string, string][] = [
    [other, other.key_pem, "The certificate was not signed by the portal's current CA. Renew it."],
    [mine, other.key_pem, "The client key does not match the certificate. Renew it."],
  ];
  for (const [cert, keyPem, reason] of refusals) {
    await store(cert, keyPem);
    const v = await get(w, `/api/devices/${w.sensorId}/certificate/verify`, "POST");
    assert.equal(v.body.valid, false);
    assert.equal(v.body.message, `Certificate validation failed: ${reason}`);
  }
  await store(mine, mine.key_pem);
  const v = await get(w, `/api/devices/${w.sensorId}/certificate/verify`, "POST");
  assert.equal(v.body.valid, true);
});

test("the stored key is sealed, forgetting deletes it, and another secret gets a new certificate", async (w) => {
  const deps = w.t.deps;
  const first = await sensorCertificate(deps, w.sensorId);
  const raw = (await getCertificateEntry(deps.kv, w.sensorId)).value!;
  assert.ok(!JSON.stringify(raw).includes("PRIVATE KEY"));
  assert.ok(!JSON.stringify(raw).includes(first.key_pem.split("\n")[1]));
  const other = { ...deps, secret: "another-secret-another-secret-0123456789" };
  const reissued = await sensorCertificate(other, w.sensorId);
  assert.notEqual(reissued.fingerprint, first.fingerprint);
  await forgetSensorCertificate(deps, w.sensorId);
  assert.equal((await getCertificateEntry(deps.kv, w.sensorId)).value, null);
});

test("certificate calls answer 400 for bad ids and 404 for stations, unknown ids and files", async (w) => {
  for (const path of ["/api/devices/abc/certificate", "/api/devices/0/certificates/ca"]) {
    const r = await get(w, path);
    assert.equal(r.status, 400, path);
    assert.equal(r.body.message, "The sensor id must be a positive whole number.");
  }
  for (
    const [method, path] of [
      ["GET", `/api/devices/${w.stationId}/certificate`],
      ["GET", `/api/devices/999999/certificates/key`],
      ["POST", `/api/devices/999999/certificate/renew`],
      ["POST", `/api/devices/${w.stationId}/certificate/verify`],
      ["GET", `/api/devices/${w.sensorId}/certificates/other`],
    ]
  ) {
    const r = await get(w, path, method);
    assert.equal(r.status, 404, path);
  }
  assert.equal((await getCertificateEntry(w.t.deps.kv, w.stationId)).value, null);
});

test("concurrent first uses of a sensor's certificate all get the one that is stored", async (w) => {
  const all = await Promise.all(
    Array.from({ length: 5 }, () => sensorCertificate(w.t.deps, w.sensorId)),
  );
  const stored = (await getCertificateEntry(w.t.deps.kv, w.sensorId)).value!;
  for (const c of all) assert.equal(c.fingerprint, stored.fingerprint);
});

test("the admin's sensor views carry the certificate's expiry and days left; tenants' do not", async (w) => {
  const before = await get(w, `/api/devices/${w.sensorId}`);
  assert.equal(before.body.certificate, null, "no certificate issued yet");
  const status = await get(w, `/api/devices/${w.sensorId}/certificate`);
  const after = await get(w, `/api/devices/${w.sensorId}`);
  assert.deepEqual(after.body.certificate, {
    expires: status.body.details.expires_on,
    days_until_expiry: status.body.details.days_remaining,
  });
  const listed = await get(w, `/api/devices/${w.stationId}/sensors`);
  assert.deepEqual(listed.body.sensors[0].certificate, after.body.certificate);
  const station = await get(w, `/api/devices/${w.stationId}`);
  assert.equal("certificate" in station.body, false, "stations have no certificate");
  const own = await call(w.t, "GET", `/api/devices/${w.sensorId}`, { token: w.tenant.token });
  assert.equal(own.status, 200);
  assert.equal("certificate" in await own.json(), false, "the tenant is not shown it");
});
