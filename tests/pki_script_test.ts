/** `deno task pki`: the broker's server certificate and the CA file from the portal's CA. */
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { parsePkiArgs } from "../scripts/pki.ts";

const SCRIPT = new URL("../scripts/pki.ts", import.meta.url).pathname;

function pki(dataDir: string, args: string[]) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", SCRIPT, ...args],
    env: { DATA_DIR: dataDir, LOG_LEVEL: "error" },
    stdout: "piped",
    stderr: "piped",
  }).output();
}

Deno.test("deno task pki server writes the portal's CA and a broker certificate it signed for the given names", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pki-script-" });
  try {
    const res = await pki(`${dir}/data`, [
      "server",
      "--host",
      "broker.example.com,10.0.0.5",
      "--out",
      `${dir}/certs`,
    ]);
    assert.equal(res.code, 0, new TextDecoder().decode(res.stderr));
    const ca = new X509Certificate(await Deno.readTextFile(`${dir}/certs/portal-ca.pem`));
    assert.equal(
      ca.raw.equals(new X509Certificate(await Deno.readTextFile(`${dir}/data/ca.pem`)).raw),
      true,
    );
    const broker = new X509Certificate(await Deno.readTextFile(`${dir}/certs/broker.pem`));
    assert.ok(broker.checkIssued(ca) && broker.verify(ca.publicKey), "signed by the portal's CA");
    assert.match(broker.subjectAltName ?? "", /DNS:broker\.example\.com/);
    assert.match(broker.subjectAltName ?? "", /IP Address:10\.0\.0\.5/);
    const key = await Deno.stat(`${dir}/certs/broker.key`);
    assert.equal(key.mode! & 0o777, 0o600);
    assert.ok(broker.checkPrivateKey(
      (await import("node:crypto")).createPrivateKey(
        await Deno.readTextFile(`${dir}/certs/broker.key`),
      ),
    ));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task pki refuses a bad command line with the usage and exit code 2, writing nothing", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pki-script-" });
  try {
    const res = await pki(`${dir}/data`, ["server", "--out", `${dir}/certs`]);
    assert.equal(res.code, 2);
    assert.match(new TextDecoder().decode(res.stderr), /--host is required/);
    assert.equal(await Deno.stat(`${dir}/certs`).catch(() => null), null);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  assert.throws(() => parsePkiArgs(["ca"]), /--out is required/);
  assert.throws(() => parsePkiArgs(["nope", "--out", "x"]), /"server" or "ca"/);
  assert.throws(() => parsePkiArgs(["server", "--host", "a b", "--out", "x"]), /not a host/);
  assert.throws(
    () => parsePkiArgs(["server", "--host", "a", "--out", "x", "--days", "0"]),
    /--days/,
  );
  assert.deepEqual(parsePkiArgs(["server", "--host", "a, b", "--out", "x"]), {
    command: "server",
    hosts: ["a", "b"],
    out: "x",
    days: 397,
  });
});
