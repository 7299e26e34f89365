/**
 * The portal's own certificate authority: ECDSA P-256 keys from WebCrypto and X.509
 * certificates built on them. The CA signs the embedded broker's server certificate and
 * each sensor's client certificate. Its files live in the data directory: `ca.pem` (the
 * certificate, public) and `ca.key` (the PKCS#8 private key, mode 0600).
 */
import * as x509 from "./_x509.ts";
import { isIP } from "node:net";

/** A certificate and its private key as PEM, with what the status screen shows. */
export interface IssuedCertificate {
  /** "-----BEGIN CERTIFICATE-----..." */
  cert_pem: string;
  /** PKCS#8 "-----BEGIN PRIVATE KEY-----..." */
  key_pem: string;
  /** Start of validity, epoch ms. */
  not_before: number;
  /** End of validity, epoch ms. */
  not_after: number;
  /** SHA-256 of the DER, upper-case hex pairs joined by ":". */
  fingerprint: string;
  /** Issuer distinguished name, e.g. "CN=Energy Portal CA". */
  issuer: string;
  /** Serial number, hex. */
  serial: string;
}

/** The portal's own certificate authority. */
export interface CertificateAuthority {
  /** The CA certificate as PEM (what devices trust). */
  readonly caPem: string;
  /** Issues a server certificate; SANs: DNS names and IP addresses from `hosts`. */
  issueServer(hosts: string[], days?: number): Promise<IssuedCertificate>;
  /** Issues a client certificate for `commonName`. */
  issueClient(commonName: string, days?: number): Promise<IssuedCertificate>;
}

/** Distinguished name of the portal's CA. */
export const CA_NAME = "CN=Energy Portal CA";
/** Years the CA certificate is valid. */
const CA_VALIDITY_YEARS = 20;
/** Days a certificate is valid when the caller names no other. */
const DEFAULT_CERT_DAYS = 365;
/** File names of the CA in the data directory. */
export const CA_CERT_FILE = "ca.pem";
/** File name of the CA's private key (mode 0600). */
export const CA_KEY_FILE = "ca.key";

const DAY_MS = 86_400_000;
const ALG: EcKeyGenParams & EcdsaParams = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
const IMPORT_ALG: EcKeyImportParams = { name: "ECDSA", namedCurve: "P-256" };

/** Thrown when the CA files cannot be used (unsafe permissions, unreadable or broken). */
export class CertificateAuthorityError extends Error {
  override name = "CertificateAuthorityError";
}

function randomSerial(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] & 0x3f) | 0x40; // positive, and no leading zero digit in hex
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function toPem(der: ArrayBuffer, label: string): string {
  return x509.PemConverter.encode(der, label) + "\n";
}

/** Upper-case hex pairs joined by ":" (the usual fingerprint notation). */
function colonHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0").toUpperCase())
    .join(":");
}

async function describe(cert: x509.X509Certificate, keyPem: string): Promise<IssuedCertificate> {
  return {
    cert_pem: cert.toString("pem") + "\n",
    key_pem: keyPem,
    not_before: cert.notBefore.getTime(),
    not_after: cert.notAfter.getTime(),
    fingerprint: colonHex(await cert.getThumbprint("SHA-256")),
    issuer: cert.issuer,
    serial: cert.serialNumber,
  };
}

/** A certificate that starts now (to the second) and lasts `days`. */
function window(now: number, days: number): { notBefore: Date; notAfter: Date } {
  if (!Number.isInteger(days) || days < 1 || days > 36_500) {
    throw new RangeError(`days must be a whole number from 1 to 36500, got ${days}`);
  }
  const start = Math.floor(now / 1000) * 1000;
  return { notBefore: new Date(start), notAfter: new Date(start + days * DAY_MS) };
}

/** Escapes a value for use inside a distinguished name (RFC 4514). */
function dnValue(value: string): string {
  return value.replace(/([,+"\\<>;=])/g, "\\$1").replace(/^([ #])/, "\\$1").replace(/ $/, "\\ ");
}

class Authority implements CertificateAuthority {
  constructor(
    readonly caPem: string,
    private readonly caCert: x509.X509Certificate,
    private readonly caKey: CryptoKey,
    private readonly now: () => number,
  ) {}

  async issueServer(hosts: string[], days = DEFAULT_CERT_DAYS): Promise<IssuedCertificate> {
    const names = [...new Set(hosts.map((h) => h.trim()).filter((h) => h !== ""))];
    if (names.length === 0) throw new RangeError("a server certificate needs at least one host");
    const sans = names.map((h) =>
      isIP(h) ? { type: "ip" as const, value: h } : { type: "dns" as const, value: h }
    );
    const cn = names.find((h) => !isIP(h)) ?? names[0];
    return await this.issue(`CN=${dnValue(cn)}`, days, [
      new x509.SubjectAlternativeNameExtension(sans),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    ]);
  }

  async issueClient(commonName: string, days = DEFAULT_CERT_DAYS): Promise<IssuedCertificate> {
    const cn = commonName.trim();
    if (cn === "" || cn.length > 64) {
      throw new RangeError(`a common name has 1 to 64 characters, got "${commonName}"`);
    }
    return await this.issue(`CN=${dnValue(cn)}`, days, [
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
    ]);
  }

  private async issue(
    subject: string,
    days: number,
    extensions: x509.Extension[],
  ): Promise<IssuedCertificate> {
    const keys = await crypto.subtle.generateKey(ALG, true, ["sign", "verify"]);
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: randomSerial(),
      subject,
      issuer: this.caCert.subject,
      ...window(this.now(), days),
      signingAlgorithm: ALG,
      publicKey: keys.publicKey,
      signingKey: this.caKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        ...extensions,
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
        await x509.AuthorityKeyIdentifierExtension.create(this.caCert),
      ],
    });
    const keyPem = toPem(await crypto.subtle.exportKey("pkcs8", keys.privateKey), "PRIVATE KEY");
    return await describe(cert, keyPem);
  }
}

async function createCa(now: number): Promise<{ cert: x509.X509Certificate; keys: CryptoKeyPair }> {
  const keys = await crypto.subtle.generateKey(ALG, true, ["sign", "verify"]);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: CA_NAME,
    ...window(now, CA_VALIDITY_YEARS * 365 + 5),
    signingAlgorithm: ALG,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert, keys };
}

async function importKey(pem: string, path: string): Promise<CryptoKey> {
  try {
    return await crypto.subtle.importKey(
      "pkcs8",
      x509.PemConverter.decodeFirst(pem),
      IMPORT_ALG,
      false,
      ["sign"],
    );
  } catch (e) {
    throw new CertificateAuthorityError(
      `${path} is not a PKCS#8 ECDSA P-256 private key (${e instanceof Error ? e.message : e})`,
    );
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/**
 * Writes a new CA into `dir`. The key appears under its name in one step (a hard link of a
 * complete 0600 file), so that of two processes starting at once one CA wins and the other
 * reads it.
 */
async function createInDir(dir: string, certPath: string, keyPath: string, now: number) {
  await Deno.mkdir(dir, { recursive: true });
  const { cert, keys } = await createCa(now);
  const keyPem = toPem(await crypto.subtle.exportKey("pkcs8", keys.privateKey), "PRIVATE KEY");
  const tag = crypto.randomUUID();
  const keyTmp = `${keyPath}.${tag}.tmp`;
  const certTmp = `${certPath}.${tag}.tmp`;
  try {
    await Deno.writeTextFile(keyTmp, keyPem, { mode: 0o600, createNew: true });
    await Deno.chmod(keyTmp, 0o600); // the umask may have narrowed it, never widened
    await Deno.writeTextFile(certTmp, cert.toString("pem") + "\n", { mode: 0o644 });
    try {
      await Deno.link(keyTmp, keyPath);
    } catch (e) {
      if (e instanceof Deno.errors.AlreadyExists) return; // another process created it
      throw e;
    }
    await Deno.rename(certTmp, certPath);
  } finally {
    await Deno.remove(keyTmp).catch(() => {});
    await Deno.remove(certTmp).catch(() => {});
  }
}

/** Reads a file that another process may be about to write (waits up to 2 s). */
async function readSoon(path: string): Promise<string> {
  for (let i = 0;; i++) {
    try {
      return await Deno.readTextFile(path);
    } catch (e) {
      if (!(e instanceof Deno.errors.NotFound) || i >= 20) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function openFromDir(dir: string, now: () => number): Promise<CertificateAuthority> {
  const certPath = `${dir}/${CA_CERT_FILE}`;
  const keyPath = `${dir}/${CA_KEY_FILE}`;
  // The certificate is looked at before the key: a creator links the key before it renames the
  // certificate, so a certificate seen without a key is a real loss, not a creation under way.
  const certSeen = await exists(certPath);
  if (!await exists(keyPath)) {
    if (certSeen) {
      throw new CertificateAuthorityError(
        `${certPath} exists but its key ${keyPath} is missing; restore the key or remove both files`,
      );
    }
    await createInDir(dir, certPath, keyPath, now());
  }
  const info = await Deno.stat(keyPath);
  if (info.mode !== null && (info.mode & 0o077) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(3, "0");
    throw new CertificateAuthorityError(
      `${keyPath} is readable by other users (mode ${mode}); run "chmod 600 ${keyPath}" and start again`,
    );
  }
  const keyPem = await Deno.readTextFile(keyPath);
  let certPem: string;
  try {
    certPem = await readSoon(certPath);
  } catch (e) {
    throw new CertificateAuthorityError(
      `${certPath} cannot be read (${e instanceof Error ? e.message : e})`,
    );
  }
  let cert: x509.X509Certificate;
  try {
    cert = new x509.X509Certificate(certPem);
  } catch (e) {
    throw new CertificateAuthorityError(
      `${certPath} is not a certificate (${e instanceof Error ? e.message : e})`,
    );
  }
  const key = await importKey(keyPem, keyPath);
  const probe = new Uint8Array([1, 2, 3]);
  const signature = await crypto.subtle.sign(ALG, key, probe);
  const publicKey = await cert.publicKey.export(IMPORT_ALG, ["verify"]);
  if (!await crypto.subtle.verify(ALG, publicKey, signature, probe)) {
    throw new CertificateAuthorityError(`${keyPath} is not the key of ${certPath}`);
  }
  return new Authority(cert.toString("pem") + "\n", cert, key, now);
}

/** Opens the CA kept in `dir` (created on first use, key file mode 0600); null keeps it in memory. */
export async function openCertificateAuthority(
  dir: string | null,
  now: () => number = Date.now,
): Promise<CertificateAuthority> {
  if (dir !== null) return await openFromDir(dir, now);
  const { cert, keys } = await createCa(now());
  return new Authority(cert.toString("pem") + "\n", cert, keys.privateKey, now);
}
