/**
 * Byte size of the HTML (uncompressed) of the list pages, as the demo admin sees them.
 *
 * Starts the real portal (`main.ts --demo`) on a temporary data folder, signs in as the
 * demo admin, fetches each page with the session cookie and prints its size in bytes.
 *
 * Usage: deno run -A scripts/html_size.ts
 */
import { spawnPortal } from "../tests/e2e/_browser.ts";

const out = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));

const PAGES = [
  "/admin/devices",
  "/admin/users",
  "/admin/users?tab=tenants",
  "/admin/users?tab=customers",
  "/admin/users?tab=access-codes",
  "/admin/zones",
  "/admin/zones/1",
  "/admin/devices/station/1/data",
];

const ADMIN = { email: "admin@demo.mx", password: "demo1234" };
const portal = await spawnPortal({
  demo: true,
  env: { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password },
});
try {
  const login = await fetch(`${portal.url}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status}`);
  const token = (await login.json()).access_token as string;
  for (const path of PAGES) {
    const res = await fetch(`${portal.url}${path}`, { headers: { cookie: `token=${token}` } });
    const bytes = new TextEncoder().encode(await res.text()).length;
    out(`${path}\t${res.status}\t${bytes} bytes`);
  }
} finally {
  await portal.close();
}
