import assert from "node:assert/strict";
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import * as x509 from "./_x509.ts";
import {
  CA_CERT_FILE,
  CA_KEY_FILE,
  CA_NAME,
  CertificateAuthorityError,
  openCertificateAuthority,
} from "./pki.ts";

const DAY = 86_400_000;

function extendedUsage(pem: string): unknown[] {
  const ext = new x509.X509Certificate(pem).getExtension(x509.ExtendedKeyUsageExtension);
  return ext ? [...ext.usages] : [];
}

Deno.test("openCertificateAuthority() makes a CA certificate that may sign certificates", async () => {
  const ca = await openCertificateAuthority(null);
  const cert = new X509Certificate(ca.caPem);
  assert.equal(cert.ca, true);
  assert.equal(cert.subject, CA_NAME.replace(/^CN=/, "CN="));
  assert.ok(cert.checkIssued(cert), "self-signed");
  assert.ok(cert.verify(cert.publicKey));
  assert.equal(cert.publicKey.asymmetricKeyType, "ec");
  assert.equal(cert.publicKey.asymmetricKeyDetails?.namedCurve, "prime256v1");
});

Deno.test("issueClient() signs a client certificate for its common name with a matching key", async () => {
  const now = Date.UTC(2026, 5, 1, 12, 0, 0);
  const ca = await openCertificateAuthority(null, () => now);
  const issued = await ca.issueClient("sim0001", 365);
  const caCert = new X509Certificate(ca.caPem);
  const cert = new X509Certificate(issued.cert_pem);
  assert.ok(cert.checkIssued(caCert));
  assert.equal(caCert.checkIssued(cert), false);
  assert.ok(cert.verify(caCert.publicKey));
  assert.equal(cert.ca, false);
  assert.equal(cert.subject, "CN=sim0001");
  assert.deepEqual(extendedUsage(issued.cert_pem), [x509.ExtendedKeyUsage.clientAuth]);
  assert.equal(issued.not_before, now);
  assert.equal(issued.not_after, now + 365 * DAY);
  assert.equal(new Date(cert.validTo).getTime(), issued.not_after);
  assert.equal(issued.issuer, CA_NAME);
  assert.equal(issued.fingerprint, cert.fingerprint256);
  assert.match(issued.fingerprint, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  assert.equal(issued.serial.toUpperCase(), cert.serialNumber.toUpperCase());
  assert.match(issued.key_pem, /^-----BEGIN PRIVATE KEY-----\n/);
  const spki = (k: ReturnType<typeof createPublicKey>) =>
    k.export({ type: "spki", format: "der" }).toString("hex");
  assert.equal(spki(createPublicKey(createPrivateKey(issued.key_pem))), spki(cert.publicKey));
});

Deno.test("issueServer() names DNS hosts and IP addresses as subject alternative names", async () => {
  const ca = await openCertificateAuthority(null);
  const issued = await ca.issueServer(["localhost", "127.0.0.1", "portal.example", "::1"], 30);
  const cert = new X509Certificate(issued.cert_pem);
  assert.ok(cert.verify(new X509Certificate(ca.caPem).publicKey));
  assert.deepEqual(extendedUsage(issued.cert_pem), [x509.ExtendedKeyUsage.serverAuth]);
  assert.equal(cert.checkHost("localhost"), "localhost");
  assert.equal(cert.checkHost("portal.example"), "portal.example");
  assert.equal(cert.checkIP("127.0.0.1"), "127.0.0.1");
  assert.equal(cert.checkHost("other.example"), undefined);
  assert.equal(issued.not_after - issued.not_before, 30 * DAY);
});

Deno.test("certificates from another CA do not verify against this one", async () => {
  const ours = await openCertificateAuthority(null);
  const theirs = await openCertificateAuthority(null);
  const foreign = new X509Certificate((await theirs.issueClient("sim0001")).cert_pem);
  assert.equal(foreign.verify(new X509Certificate(ours.caPem).publicKey), false);
});

Deno.test("issue calls refuse empty hosts, empty names and bad day counts", async () => {
  const ca = await openCertificateAuthority(null);
  await assert.rejects(() => ca.issueServer([" "]), RangeError);
  await assert.rejects(() => ca.issueClient(""), RangeError);
  await assert.rejects(() => ca.issueClient("x", 0), RangeError);
  await assert.rejects(() => ca.issueClient("x", 1.5), RangeError);
});

Deno.test("a CA kept in a directory writes ca.key with mode 0600 and is the same after reopening", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await openCertificateAuthority(dir);
    assert.equal((await Deno.stat(`${dir}/${CA_KEY_FILE}`)).mode! & 0o777, 0o600);
    assert.equal(await Deno.readTextFile(`${dir}/${CA_CERT_FILE}`), first.caPem);
    const again = await openCertificateAuthority(dir);
    assert.equal(again.caPem, first.caPem);
    const issued = await again.issueClient("sim0002");
    assert.ok(
      new X509Certificate(issued.cert_pem).verify(new X509Certificate(first.caPem).publicKey),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a CA key readable by other users stops the CA from opening, with the fix in the message", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await openCertificateAuthority(dir);
    await Deno.chmod(`${dir}/${CA_KEY_FILE}`, 0o644);
    await assert.rejects(
      () => openCertificateAuthority(dir),
      (e: Error) =>
        e instanceof CertificateAuthorityError &&
        /readable by other users \(mode 644\)/.test(e.message) &&
        e.message.includes("chmod 600"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a CA certificate without its key, or a key of another CA, is refused", async () => {
  const dir = await Deno.makeTempDir();
  const other = await Deno.makeTempDir();
  try {
    await openCertificateAuthority(dir);
    await openCertificateAuthority(other);
    await Deno.copyFile(`${other}/${CA_KEY_FILE}`, `${dir}/${CA_KEY_FILE}`);
    await assert.rejects(() => openCertificateAuthority(dir), /is not the key of/);
    await Deno.remove(`${dir}/${CA_KEY_FILE}`);
    await assert.rejects(() => openCertificateAuthority(dir), /key .* is missing/);
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(other, { recursive: true });
  }
});

Deno.test("eight openings of an empty directory at once end with one CA that all use", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cas = await Promise.all(
      Array.from({ length: 8 }, () => openCertificateAuthority(dir)),
    );
    assert.equal(new Set(cas.map((ca) => ca.caPem)).size, 1);
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort(),
      [CA_KEY_FILE, CA_CERT_FILE],
    );
    assert.equal((await Deno.stat(`${dir}/${CA_KEY_FILE}`)).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
