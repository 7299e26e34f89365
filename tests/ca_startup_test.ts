/** The portal refuses to start when its CA key can be read by other users. */
import assert from "node:assert/strict";
import { CA_KEY_FILE, openCertificateAuthority } from "../services/platform/pki.ts";

Deno.test("main.ts stops with exit code 2 and names the fix when ca.key is readable by others", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await openCertificateAuthority(dir);
    await Deno.chmod(`${dir}/${CA_KEY_FILE}`, 0o640);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL("../main.ts", import.meta.url).pathname],
      env: { DATA_DIR: dir, PORT: "18091", MQTT_PORT: "18092", MQTT_TLS_PORT: "0" },
      signal: AbortSignal.timeout(30_000),
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2, stderr);
    assert.match(stderr, /ca\.key is readable by other users \(mode 640\); run "chmod 600 /);
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort(),
      ["ca.key", "ca.pem"],
      "nothing else was created",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
