/**
 * The Dockerfile: an unprivileged user owns /data, the build context leaves out history, data
 * and tests, and the command runs with narrow permissions that are enough to serve (the same
 * flags, with /app and /data mapped to this checkout and a temp folder, start the portal).
 */
import assert from "node:assert/strict";

const root = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");
const dockerfile = await Deno.readTextFile(`${root}/Dockerfile`);
const lines = dockerfile.replace(/\\\n/g, " ").split("\n").map((l) => l.trim());
const instr = (name: string) => lines.filter((l) => l.startsWith(`${name} `));

Deno.test("the image runs as deno over a /data it owns, and ignores what it does not need", async () => {
  assert.deepEqual(instr("USER"), ["USER deno"]);
  const run = instr("RUN").join(" ");
  assert.match(run, /chown deno:deno \/data/);
  const ignored = (await Deno.readTextFile(`${root}/.dockerignore`)).split("\n").map((l) =>
    l.trim()
  );
  for (const p of [".git", "data", "node_modules", "tests", ".tools"]) {
    assert.ok(ignored.includes(p), `.dockerignore lists ${p}`);
  }
});

Deno.test("the image's command has no -A, writes only /data, and its permissions suffice", async () => {
  const cmd: string[] = JSON.parse(instr("CMD")[0].slice(4));
  assert.equal(cmd[0], "run");
  assert.ok(!cmd.includes("-A") && !cmd.includes("--allow-all"), cmd.join(" "));
  assert.ok(cmd.includes("--allow-write=/data"), cmd.join(" "));
  assert.ok(!cmd.some((a) => a.startsWith("--allow-run") || a.startsWith("--allow-ffi")));
  const data = await Deno.makeTempDir();
  const port = 19000 + Math.floor(Math.random() * 500);
  const args = cmd.map((a) => a.replaceAll("/app", root).replaceAll("/data", data));
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: data,
      MQTT_PORT: String(port + 500),
      MQTT_TLS_PORT: "0",
      ADMIN_PASSWORD: "Docker-Check-2026",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    const deadline = Date.now() + 60_000;
    while (!seen.includes("Portal ready") && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += value;
    }
    reader.releaseLock();
    assert.match(seen, /Portal ready/);
    const res = await fetch(`http://127.0.0.1:${port}/login`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
  } finally {
    child.kill("SIGTERM");
    const status = await child.status;
    const err = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
    assert.ok(!/PermissionDenied|NotCapable|Requires .* access/.test(err), err);
    await child.stdout.cancel().catch(() => {});
    void status;
    await Deno.remove(data, { recursive: true });
  }
});
