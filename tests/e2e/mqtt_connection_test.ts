/**
 * Test MQTT Connection in Chromium, with JavaScript off: the sensor page's button posts the
 * form, the portal signs in to the embedded broker (TLS, client certificate) as the sensor,
 * and the page comes back with the result; a password the broker refuses is reported so.
 */
import assert from "node:assert/strict";
import { adminWithMeter, test } from "./_browser.ts";
import { sealMqttPassword } from "../../services/platform/mqtt_passwords.ts";
import { updateDevice } from "../../db/devices.ts";
import { portalTlsBroker } from "../ingest/_helpers.ts";

test("the Test MQTT Connection button works without JavaScript and shows the broker's answer", async ({ portal, browser }) => {
  const deps = portal.deps;
  deps.config.mqtt.tlsHosts = ["localhost", "127.0.0.1"];
  const broker = await portalTlsBroker(deps);
  try {
    deps.config.mqtt.port = broker.port;
    deps.config.mqtt.tlsPort = broker.tlsPort!;
    const { page, sensor, sensorPage } = await adminWithMeter(browser, portal, "STE2E", "E2E001");
    await page.setJavaScriptEnabled(false);
    await page.goto(sensorPage, { waitUntil: "load" });
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
