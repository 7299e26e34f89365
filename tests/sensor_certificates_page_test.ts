/**
 * The certificate part of the sensor page's 'MQTT Connection Issue' panel, without
 * JavaScript: downloads as plain links, the status with health, port 8883 and the three
 * files in the setup steps, Renew (with confirmation) and Verify Certificates as form posts
 * that come back to the page with their outcome.
 */
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { call, testsWith } from "./_helpers.ts";
import { stationWorld } from "./_station_world.ts";
import { markOnline } from "../db/device_status.ts";
import { sensorCertificate } from "../services/devices/mod.ts";

const test = testsWith(stationWorld, (w) => w.t.close());

type World = Awaited<ReturnType<typeof stationWorld>>;

const pathOf = (w: World) => `/admin/devices/station/${w.stationId}/sensor/${w.sensorId}`;

async function page(w: World, query = ""): Promise<string> {
  const res = await call(w.t, "GET", `${pathOf(w)}/data${query}`, { token: w.admin.token });
  assert.equal(res.status, 200);
  return await res.text();
}

function part(html: string, id: string, length = 3000): string {
  const i = html.indexOf(`data-testid="${id}"`);
  assert.ok(i >= 0, `no ${id} on the page`);
  return html.slice(i, i + length);
}

async function post(w: World, action: string, form: Record<string, string> = {}) {
  const res = await call(w.t, "POST", `${pathOf(w)}/certificate/${action}`, {
    token: w.admin.token,
    form,
  });
  assert.equal(res.status, 303);
  return res.headers.get("location")!;
}

test("the MQTT Connection Issue panel links the three downloads and shows the certificate status", async (w) => {
  const html = await page(w);
  const issued = await sensorCertificate(w.t.deps, w.sensorId);
  for (const file of ["ca", "cert", "key"]) {
    assert.match(
      html,
      new RegExp(`href="/api/devices/${w.sensorId}/certificates/${file}"[^>]*download`),
    );
  }
  const status = part(html, "certificate-status");
  assert.match(status, /data-health="green"/);
  assert.match(status, /Certificate is valid\./);
  assert.ok(status.includes(issued.fingerprint), "fingerprint shown");
  assert.match(status, /CN=Energy Portal CA/);
  assert.match(part(html, "certificate-days", 100), /36[45] days/);
  assert.match(part(html, "tls-step", 200), /Port for MQTT over TLS: 8883/);
  assert.match(part(html, "mqtt-issue", 8000), /user_ca\.pem.*client\.pem.*client\.key/s);
  assert.match(part(html, "checklist", 2000), /Certificates valid/);
  assert.match(html, new RegExp(`action="${pathOf(w)}/certificate/verify"`));
  assert.match(html, new RegExp(`action="${pathOf(w)}/certificate/renew"`));
  assert.match(
    part(html, "renew-form", 800),
    /<input type="checkbox" required="" name="confirm" value="yes"\/>/,
  );
});

test("a page download link answers the file to the signed-in admin's cookie", async (w) => {
  const res = await call(w.t, "GET", `/api/devices/${w.sensorId}/certificates/cert`, {
    cookie: `token=${w.admin.token}`,
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-disposition"), 'attachment; filename="client.pem"');
  assert.equal(new X509Certificate(await res.text()).subject, "CN=sim0001");
});

test("Renew without the confirmation changes nothing and says so; with it a new certificate is shown", async (w) => {
  const before = await sensorCertificate(w.t.deps, w.sensorId);
  const refused = await post(w, "renew");
  assert.equal(refused, `${pathOf(w)}/data?certificate_error=confirm_required#certificate`);
  assert.equal((await sensorCertificate(w.t.deps, w.sensorId)).fingerprint, before.fingerprint);
  const html = await page(w, refused.slice(refused.indexOf("?")).replace(/#.*/, ""));
  assert.match(part(html, "certificate-notice", 300), /Confirm that you will install/);

  const done = await post(w, "renew", { confirm: "yes" });
  assert.equal(done, `${pathOf(w)}/data?done=certificate_renewed#certificate`);
  const after = await sensorCertificate(w.t.deps, w.sensorId);
  assert.notEqual(after.fingerprint, before.fingerprint);
  const page2 = await page(w, "?done=certificate_renewed");
  assert.match(part(page2, "certificate-notice", 300), /A new certificate was issued/);
  assert.ok(part(page2, "certificate-status").includes(after.fingerprint));
});

test("Verify Certificates comes back to the page with the result of checking the stored certificate", async (w) => {
  const back = await post(w, "verify");
  assert.equal(back, `${pathOf(w)}/data?verified=ok#certificate`);
  const html = await page(w, "?verified=ok");
  assert.match(
    part(html, "verify-result", 400),
    /Certificates verified: signed by the portal&#x27;s CA, the key matches the certificate/,
  );
  assert.doesNotMatch(await page(w), /data-testid="verify-result"/);
});

test("an online sensor's page shows no certificate panel, and pages are for admins only", async (w) => {
  await markOnline(w.t.deps.kv, w.sensorId, Date.now());
  assert.doesNotMatch(await page(w), /data-testid="certificate-panel"/);
  const res = await call(w.t, "POST", `${pathOf(w)}/certificate/renew`, {
    token: w.tenant.token,
    form: { confirm: "yes" },
  });
  assert.equal(res.status, 302);
  assert.equal(res.headers.get("location"), "/");
});
