/**
 * A port another program holds stops the portal with one line that names the setting to
 * change and the status of a bad setting (2), for the web port and the broker's alike.
 */
import assert from "node:assert/strict";
import { freeLoopbackPort } from "./_mosquitto.ts";

async function startWith(env: Record<string, string>) {
  const dataDir = await Deno.makeTempDir({ prefix: "portal-port-" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "main.ts"],
      cwd: new URL("../", import.meta.url),
      env: { HOSTNAME: "127.0.0.1", DATA_DIR: dataDir, LOG_LEVEL: "error", NO_COLOR: "1", ...env },
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: out.code, stderr: new TextDecoder().decode(out.stderr).trim() };
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
}

for (const which of ["PORT", "MQTT_PORT"] as const) {
  Deno.test(`${which} held by another program: exit 2 with one line naming the address and the settings`, async () => {
    const held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (held.addr as Deno.NetAddr).port;
    try {
      const env = {
        PORT: String(freeLoopbackPort()),
        MQTT_PORT: String(freeLoopbackPort()),
        MQTT_HOSTNAME: "127.0.0.1",
        MQTT_TLS_PORT: "0",
        [which]: String(port),
      };
      const { code, stderr } = await startWith(env);
      assert.equal(code, 2, stderr);
      assert.equal(stderr.split("\n").length, 1, stderr);
      assert.match(stderr, new RegExp(`127\\.0\\.0\\.1:${port}`));
      assert.match(
        stderr,
        /set PORT \(web\), MQTT_PORT or MQTT_TLS_PORT \(devices\) to a free one/,
      );
    } finally {
      held.close();
    }
  });
}
