/**
 * Test MQTT Connection in Chromium, with JavaScript off: the sensor page's button posts the
 * form, the portal signs in to the embedded broker (TLS, client certificate) as the sensor,
 * and the page comes back with the result; a password the broker refuses is reported so.
 */
import assert from "node:assert/strict";
import { addAccount, freshPage, signIn, withPortalAndBrowser } from "./_browser.ts";
import { startEmbeddedBroker } from "../../ingest/broker.ts";
import { brokerTls } from "../../services/mqtt_runtime.ts";
import { createDeviceDirectory } from "../../services/device_status.ts";
import { issueToken } from "../../services/tokens.ts";
import { sealMqttPassword } from "../../services/mqtt_passwords.ts";
import { updateDevice } from "../../db/devices.ts";
import { INGEST_CREDENTIALS } from "../ingest/_helpers.ts";

Deno.test("the Test MQTT Connection button works without JavaScript and shows the broker's answer", async () => {
  await withPortalAndBrowser(async (portal, browser) => {
    const deps = portal.deps;
    deps.config.mqtt.tlsHosts = ["localhost", "127.0.0.1"];
    const broker = await startEmbeddedBroker({
      port: 0,
      hostname: "127.0.0.1",
      directory: createDeviceDirectory(deps),
      ingestCredentials: INGEST_CREDENTIALS,
      tls: { ...(await brokerTls(deps))!, port: 0 },
    });
    try {
      deps.config.mqtt.port = broker.port;
      deps.config.mqtt.tlsPort = broker.tlsPort!;
      const admin = await addAccount(portal, "admin", { language: "en" });
      const token = await issueToken(deps.secret, admin.user, Date.now(), 600);
      const api = async (path: string, body: unknown) => {
        const res = await fetch(`${portal.url}${path}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            origin: portal.url,
          },
          body: JSON.stringify(body),
        });
        assert.equal(res.status, 201, await res.clone().text());
        return (await res.json()).id as number;
      };
      const station = await api("/api/devices", {
        name: "E2E station",
        location: JSON.stringify({ city: "Monterrey", state: "NL", country: "MX" }),
        serial_number: "STE2E",
        station_id: "st_e2e",
        config: {
          mqtt: { username: "st-e2e", password: "station-pass" },
          station: {
            ssrs: [{ id: "ssr_1", gpio_pin: 0 }],
            units: [{ id: "unit_1", ssr_id: "ssr_1" }],
          },
        },
      });
      const sensor = await api(`/api/devices/${station}/sensors`, {
        name: "E2E meter",
        serial_number: "E2E001",
        config: {
          mqtt: { username: "meter-e2e001", password: "meter-pass-e2e" },
          sensor: { unit_id: "unit_1", tenant_id: null, ip_address: "10.0.0.7" },
        },
      });

      const page = await freshPage(browser);
      await signIn(page, portal, admin.email, admin.password);
      await page.setJavaScriptEnabled(false);
      const data = `${portal.url}/admin/devices/station/${station}/sensor/${sensor}/data`;
      await page.goto(data, { waitUntil: "load" });
      const press = () =>
        Promise.all([
          page.waitForNavigation({ waitUntil: "load" }),
          page.click("[data-testid=test-mqtt]"),
        ]);
      await press();
      const shown = () => page.$eval("[data-testid=mqtt-test-result]", (e) => e.textContent);
      assert.equal(
        await shown(),
        `MQTT connection test succeeded: the sensor can sign in to 127.0.0.1:${broker.tlsPort} and use its topics.`,
      );

      const sealed = await sealMqttPassword(deps.secret, "a-stale-password");
      await updateDevice(deps.kv, sensor, (d) => ({ ...d, mqtt_password_sealed: sealed }));
      await press();
      assert.equal(
        await shown(),
        "MQTT Connection test failed: the broker refused the username or password",
      );
      await page.close();
    } finally {
      await broker.close();
    }
  });
});
