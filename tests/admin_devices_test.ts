/**
 * The admin device screens: station list, station form (with the no-JavaScript SSR and unit
 * editor), station data page, deletes, sensor form, sensor details, not-found pages, and
 * who may open them. The SSR/unit editing rules of the StationEditor island are checked
 * here too (its pure functions; the browser check is `e2e/station_editor_test.ts`).
 */
import assert from "node:assert/strict";
import { account, call, type TestApp, testApp, withAdminApp as withApp } from "./_helpers.ts";
import { getDevice, listDevices } from "../db/devices.ts";
import { markOffline, markOnline } from "../db/device_status.ts";
import { verifyMqttPassword } from "../services/platform/mqtt_passwords.ts";
import { createZone } from "../db/zones.ts";
import { defaultZone } from "../core/zone.ts";

async function page(t: TestApp, path: string, token: string, status = 200) {
  const res = await call(t, "GET", path, { token });
  assert.equal(res.status, status, `GET ${path}`);
  return await res.text();
}

/** The station form's location fields, as the station stores them. */
const LOCATION = {
  street: "Av. Juárez",
  street_number: "100",
  colony: "Centro",
  postal_code: "64000",
  city: "Monterrey",
  state: "Nuevo León",
  country: "México",
  indications: "Gate 2",
};

/** A valid station form, with `ssrs` SSRs (GPIO 0..) and one unit per SSR. */
function stationForm(serial: string, o: { ssrs?: number; password?: string } = {}) {
  const n = o.ssrs ?? 2;
  const ssr = [...Array(n).keys()];
  return {
    name: `Estación ${serial}`,
    serial_number: serial,
    station_id: `st_${serial}`,
    ...LOCATION,
    mqtt_username: `mq-${serial}`,
    mqtt_password: o.password ?? "secret-pw-0123456789",
    ssr_id: ssr.map((i) => `ssr_${i + 1}`),
    ssr_name: ssr.map((i) => `Relay ${i + 1}`),
    ssr_type: ssr.map((i) => (i === 0 ? "emergency" : "normal")),
    ssr_gpio: ssr.map((i) => String(i)),
    unit_id: ssr.map((i) => `unit_${i + 1}`),
    unit_name: ssr.map((i) => `Depto ${i + 1}`),
    unit_ssr: ssr.map((i) => `ssr_${i + 1}`),
  };
}

/** Creates a station through the form; answers its id. */
async function makeStation(t: TestApp, admin: string, serial: string): Promise<number> {
  const res = await call(t, "POST", "/admin/devices/station/create", {
    token: admin,
    form: stationForm(serial),
  });
  const body: string = (await res.clone().text()).slice(0, 300);
  assert.equal(res.status, 303, body);
  const m = /^\/admin\/devices\/station\/(\d+)\/data\?done=created$/.exec(
    res.headers.get("location") ?? "",
  );
  assert.ok(m, `redirect to the data page, got ${res.headers.get("location")}`);
  return Number(m[1]);
}

/** A valid sensor form. */
function sensorForm(serial: string, unit: string, tenant = "") {
  return {
    name: `Medidor ${serial}`,
    serial_number: serial,
    unit_id: unit,
    tenant_id: tenant,
    ip_address: "192.168.1.50",
    mqtt_username: `mq-${serial}`,
    mqtt_password: "meter-pw-0123456789",
  };
}

async function makeSensor(
  t: TestApp,
  admin: string,
  station: number,
  serial: string,
  unit: string,
  tenant = "",
): Promise<number> {
  const res = await call(t, "POST", `/admin/devices/station/${station}/sensor/create`, {
    token: admin,
    form: sensorForm(serial, unit, tenant),
  });
  const body: string = (await res.clone().text()).slice(0, 300);
  assert.equal(res.status, 303, body);
  assert.equal(
    res.headers.get("location"),
    `/admin/devices/station/${station}/data?done=sensor_created`,
  );
  const sensors = (await listDevices(t.deps.kv, "sensor")).filter((d) =>
    d.serial_number === serial
  );
  assert.equal(sensors.length, 1);
  return sensors[0].id;
}

/** The hidden GPIO inputs of the editor, in order. */
const gpios = (html: string) =>
  [...html.matchAll(/name="ssr_gpio" value="(\d+)"/g)].map((m) => Number(m[1]));

/** Asserts that a form post was refused (400) showing each of `messages`; answers the page. */
async function refusedWith(res: Response, messages: string[]): Promise<string> {
  assert.equal(res.status, 400);
  const html = await res.text();
  for (const msg of messages) assert.ok(html.includes(msg), `shows '${msg}'`);
  return html;
}

Deno.test("GET /admin/devices lists stations with city, customer, units and links, and searches", async () => {
  await withApp(async (t, admin) => {
    const empty = await page(t, "/admin/devices", admin);
    assert.match(empty, /data-testid="empty-state"/);
    assert.match(empty, /No stations found/);
    assert.match(empty, /href="\/admin\/devices\/station\/create"/);

    const a = await makeStation(t, admin, "MTY-001");
    const b = await makeStation(t, admin, "GDL-002");
    const html = await page(t, "/admin/devices", admin);
    assert.match(html, /Estación MTY-001/);
    assert.match(html, /Estación GDL-002/);
    assert.match(html, /Monterrey/);
    assert.match(html, /2 unit\(s\)/);
    assert.match(html, /Not assigned/, "no customer yet");
    assert.match(html, new RegExp(`href="/admin/report/station/${a}"`));
    assert.match(html, new RegExp(`href="/admin/devices/station/${b}/data"`));
    assert.match(html, /class="status-dot dot-grey"/, "unknown status is grey");
    assert.match(html, /data-testid="stations-table"/);
    assert.match(
      html,
      /<td class="mono nowrap" data-label="Serial Number">[^<]*MTY-001/,
      "each cell carries its column label for the phone card",
    );
    assert.equal(html.match(/data-station-id=/g)?.length, 2, "each station is rendered once");

    const found = await page(t, "/admin/devices?q=gdl", admin);
    assert.match(found, /Estación GDL-002/);
    assert.doesNotMatch(found, /Estación MTY-001/);
    const none = await page(t, "/admin/devices?q=zzzz", admin);
    assert.match(none, /No stations match your search/);
  });
});

Deno.test("the station form assigns a pricing zone, shows it preselected and refuses an unknown one", async () => {
  await withApp(async (t, admin) => {
    const zone = await createZone(t.deps.kv, defaultZone("Zona Norte"), Date.now());
    const form = await page(t, "/admin/devices/station/create", admin);
    assert.match(form, new RegExp(`<option value="${zone.id}">Zona Norte</option>`));

    const res = await call(t, "POST", "/admin/devices/station/create", {
      token: admin,
      form: { ...stationForm("ZN-1"), zone_id: String(zone.id) },
    });
    assert.equal(res.status, 303);
    const id = Number(/station\/(\d+)\/data/.exec(res.headers.get("location") ?? "")?.[1]);
    assert.equal((await getDevice(t.deps.kv, id))?.zone_id, zone.id);

    const edit = await page(t, `/admin/devices/station/${id}`, admin);
    assert.match(edit, new RegExp(`<option value="${zone.id}" selected="">Zona Norte</option>`));
    const api = await call(t, "GET", `/api/devices/${id}`, { token: admin });
    const view = await api.json();
    assert.equal(view.zone_id, zone.id);
    assert.deepEqual(view.zone, { name: "Zona Norte" });

    const before = (await listDevices(t.deps.kv)).length;
    const bad = await call(t, "POST", "/admin/devices/station/create", {
      token: admin,
      form: { ...stationForm("ZN-2"), zone_id: "999999" },
    });
    assert.equal(bad.status, 400);
    assert.match(await bad.text(), /id="zone_id-error"[^>]*>Choose a valid pricing zone/);
    assert.equal((await listDevices(t.deps.kv)).length, before, "nothing was stored");
    const apiBad = await call(t, "PUT", `/api/devices/${id}`, {
      token: admin,
      json: { ...view, zone_id: 999999, config: { ...view.config, mqtt: { username: "mq-ZN-1" } } },
    });
    assert.equal(apiBad.status, 400);
    assert.equal((await getDevice(t.deps.kv, id))?.zone_id, zone.id, "the zone is unchanged");
  });
});

Deno.test("POST /admin/devices/station/create stores the station and goes to its data page", async () => {
  await withApp(async (t, admin) => {
    const form = await page(t, "/admin/devices/station/create", admin);
    assert.deepEqual(gpios(form), [0], "a new station starts with one SSR on GPIO0");
    assert.match(form, /data-island="StationEditor"/);
    assert.match(form, /<select id="zone_id" name="zone_id"/);
    assert.doesNotMatch(form, /name="zone_id"[^>]*disabled/);

    const id = await makeStation(t, admin, "MTY-001");
    const stored = await getDevice(t.deps.kv, id);
    assert.ok(stored);
    assert.equal(stored.type, "station");
    assert.equal(stored.name, "Estación MTY-001");
    assert.equal(stored.station_id, "st_MTY-001");
    assert.equal(stored.zone_id, null);
    assert.deepEqual(JSON.parse(stored.location), LOCATION);
    assert.equal(stored.config.mqtt.username, "mq-MTY-001");
    assert.equal(stored.config.mqtt.topic_prefix, "station/MTY-001");
    assert.ok(await verifyMqttPassword("secret-pw-0123456789", stored.mqtt_password_hash));
    assert.deepEqual(stored.config.station!.ssrs, [
      { id: "ssr_1", name: "Relay 1", type: "emergency", gpio_pin: 0 },
      { id: "ssr_2", name: "Relay 2", type: "normal", gpio_pin: 1 },
    ]);
    assert.deepEqual(
      stored.config.station!.units.map((u) => [u.id, u.name, u.ssr_id]),
      [["unit_1", "Depto 1", "ssr_1"], ["unit_2", "Depto 2", "ssr_2"]],
    );

    const data = await page(t, `/admin/devices/station/${id}/data?done=created`, admin);
    assert.match(data, /Station created successfully/);
  });
});

Deno.test("a station form with bad input answers 400 with the spec's messages and stores nothing", async () => {
  await withApp(async (t, admin) => {
    const res = await call(t, "POST", "/admin/devices/station/create", {
      token: admin,
      form: {
        ...stationForm("X", { ssrs: 0 }),
        name: " ",
        serial_number: "",
        station_id: "",
        city: "",
        state: "",
        country: "",
        mqtt_username: "",
        mqtt_password: "",
        unit_id: "unit_1",
        unit_name: "Lonely",
        unit_ssr: "ssr_9",
      },
    });
    const html = await refusedWith(res, [
      "Failed to create station",
      "Station name is required",
      "Serial number is required",
      "Station ID is required",
      "City is required",
      "State is required",
      "Country is required",
      "MQTT username is required",
      "MQTT password is required",
      "Number of SSRs must be between 1 and 12",
      "Units must be assigned to existing SSRs",
    ]);
    assert.match(html, /id="name"[^>]*aria-invalid="true"/);
    assert.equal((await listDevices(t.deps.kv)).length, 0);

    // More than 12 SSRs posted by hand: the server refuses it too.
    const many = await call(t, "POST", "/admin/devices/station/create", {
      token: admin,
      form: { ...stationForm("MANY", { ssrs: 13 }), unit_id: [], unit_name: [], unit_ssr: [] },
    });
    assert.equal(many.status, 400);
    assert.match(await many.text(), /Maximum 12 SSRs allowed/);
    assert.equal((await listDevices(t.deps.kv)).length, 0);
  });
});

Deno.test("without JavaScript the editor's buttons add and remove rows and refuse what the spec refuses", async () => {
  await withApp(async (t, admin) => {
    const post = (form: Record<string, string | string[]>) =>
      call(t, "POST", "/admin/devices/station/create", { token: admin, form });
    const base = stationForm("NOJS", { ssrs: 2 });

    const added = await post({ ...base, action: "add_ssr" });
    assert.equal(added.status, 200);
    const html = await added.text();
    assert.deepEqual(gpios(html), [0, 1, 2], "the new SSR gets the next GPIO pin");
    assert.match(html, /name="ssr_id" value="ssr_3"/);
    assert.match(html, /value="SSR 3"/);
    assert.match(html, /value="Av. Juárez"/, "the other fields come back");
    assert.equal((await listDevices(t.deps.kv)).length, 0, "nothing stored yet");

    const full = stationForm("FULL", { ssrs: 12 });
    const refused = await post({ ...full, action: "add_ssr" });
    const refusedHtml = await refused.text();
    assert.match(refusedHtml, /Maximum 12 SSRs allowed/);
    assert.equal(gpios(refusedHtml).length, 12);

    const inUse = await post({ ...base, action: "remove_ssr:ssr_1" });
    const inUseHtml = await inUse.text();
    assert.match(inUseHtml, /Cannot remove SSR assigned to units/);
    assert.deepEqual(gpios(inUseHtml), [0, 1]);

    const unitGone = await post({ ...base, action: "remove_unit:unit_2" });
    const unitGoneHtml = await unitGone.text();
    assert.doesNotMatch(unitGoneHtml, /name="unit_id" value="unit_2"/);
    const ssrGone = await post({
      ...base,
      unit_id: "unit_1",
      unit_name: "Depto 1",
      unit_ssr: "ssr_1",
      action: "remove_ssr:ssr_2",
    });
    assert.deepEqual(gpios(await ssrGone.text()), [0]);

    const noSsrs = await post({
      ...base,
      ssr_id: [],
      ssr_name: [],
      ssr_type: [],
      ssr_gpio: [],
      unit_id: [],
      unit_name: [],
      unit_ssr: [],
      action: "add_unit",
    });
    assert.match(await noSsrs.text(), /Add SSRs before creating units/);

    const unit = await post({ ...base, action: "add_unit" });
    const unitHtml = await unit.text();
    assert.match(unitHtml, /name="unit_id" value="unit_3"/);
    assert.match(
      unitHtml,
      /id="unit_ssr_2"[^>]*>(<option[^>]*>[^<]*<\/option>)*?<option value="ssr_1" selected=""/,
      "the new unit is on the first SSR",
    );
  });
});

Deno.test("the station form refuses an 11-character MQTT password next to its field, in Spanish, and stores nothing; 12 is saved", async () => {
  await withApp(async (t, admin) => {
    const id = await makeStation(t, admin, "PW-1");
    const before = JSON.stringify(await listDevices(t.deps.kv));
    for (
      const [path, serial] of [
        ["/admin/devices/station/create", "PW-2"],
        [`/admin/devices/station/${id}`, "PW-1"],
      ]
    ) {
      const res = await call(t, "POST", path, {
        token: admin,
        form: stationForm(serial, { password: "abcdefghijk" }),
      });
      assert.equal(res.status, 400, path);
      const html = await res.text();
      assert.match(
        html,
        /id="mqtt_password"[^>]*aria-invalid="true"/,
        "the password field is marked",
      );
      assert.ok(html.includes("La contraseña MQTT debe tener al menos 12 caracteres"), path);
      assert.doesNotMatch(html, /abcdefghijk/, "the refused password is not sent back");
    }
    assert.equal(JSON.stringify(await listDevices(t.deps.kv)), before);

    const ok = await call(t, "POST", `/admin/devices/station/${id}`, {
      token: admin,
      form: stationForm("PW-1", { password: "abcdefghijkl" }),
    });
    assert.equal(ok.status, 303);
    const stored = (await getDevice(t.deps.kv, id))!;
    assert.ok(await verifyMqttPassword("abcdefghijkl", stored.mqtt_password_hash));
  }, { language: "es" });
});

Deno.test("editing a station updates it and a blank MQTT password keeps the current one", async () => {
  await withApp(async (t, admin) => {
    const id = await makeStation(t, admin, "EDIT-1");
    const form = await page(t, `/admin/devices/station/${id}`, admin);
    assert.match(form, /Edit Station/);
    assert.match(form, /value="Estación EDIT-1"/);
    assert.match(form, /value="station\/EDIT-1"/, "the topic prefix is shown");
    assert.match(form, /Leave blank to keep the current password/);
    assert.deepEqual(gpios(form), [0, 1]);

    const res = await call(t, "POST", `/admin/devices/station/${id}`, {
      token: admin,
      form: { ...stationForm("EDIT-1"), name: "Renamed", city: "Saltillo", mqtt_password: "" },
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), `/admin/devices/station/${id}/data?done=updated`);
    const stored = (await getDevice(t.deps.kv, id))!;
    assert.equal(stored.name, "Renamed");
    assert.equal(JSON.parse(stored.location).city, "Saltillo");
    assert.ok(await verifyMqttPassword("secret-pw-0123456789", stored.mqtt_password_hash));

    const bad = await call(t, "POST", `/admin/devices/station/${id}`, {
      token: admin,
      form: { ...stationForm("EDIT-1"), state: "" },
    });
    assert.equal(bad.status, 400);
    const badHtml = await bad.text();
    assert.match(badHtml, /Failed to update station/);
    assert.match(badHtml, /State is required/);
  });
});

Deno.test("the station data page shows its cards, its sensors and the empty state", async () => {
  await withApp(async (t, admin) => {
    const customer = await account(t, "customer", { full_name: "Dueña Uno" });
    const tenant = await account(t, "user", { full_name: "Inquilina Ana" });
    const id = await makeStation(t, admin, "DATA-1");

    const empty = await page(t, `/admin/devices/station/${id}/data`, admin);
    assert.match(empty, /No Sensors Added/);
    assert.match(
      empty,
      new RegExp(`href="/admin/devices/station/${id}/sensor/create"[^>]*>.*Add First Sensor`),
    );
    assert.match(empty, /Not Assigned/);
    assert.match(empty, /0\/0 online/);
    assert.match(empty, /href="\/admin\/devices"/);
    assert.match(empty, new RegExp(`href="/admin/report/station/${id}"`));
    assert.match(empty, /data-island="StationStatus"/);

    const assign = await call(t, "POST", "/api/devices/assign-customer", {
      token: admin,
      json: { customer_id: customer.user.id, station_ids: [id] },
    });
    assert.equal(assign.status, 200);
    const s1 = await makeSensor(t, admin, id, "SH-1", "unit_1", String(tenant.user.id));
    const s2 = await makeSensor(t, admin, id, "SH-2", "unit_2");
    await markOnline(t.deps.kv, id, Date.now());
    await markOnline(t.deps.kv, s1, Date.now());
    await markOffline(t.deps.kv, s2, Date.now(), "will", []);

    const html = await page(t, `/admin/devices/station/${id}/data`, admin);
    assert.match(html, /Dueña Uno/);
    assert.match(html, /1\/2 online/);
    assert.match(html, /Depto 1 \(Inquilina Ana\)/);
    assert.match(html, /Depto 2 \(No tenant\)/);
    assert.match(html, /data-testid="station-status" data-status="error"/, "a sensor offline");
    assert.match(html, /Medidor SH-1/);
    assert.match(html, new RegExp(`href="/admin/devices/station/${id}/sensor/${s1}/data"`));
    assert.match(html, new RegExp(`href="/admin/devices/station/${id}/sensor/${s2}"`));
    assert.doesNotMatch(html, /No Sensors Added/);

    const list = await page(t, "/admin/devices", admin);
    assert.match(list, /Dueña Uno/);
    assert.match(list, /class="status-dot dot-red"/, "error is red");
  });
});

Deno.test("a station with sensors cannot be deleted; an empty one is, after confirmation", async () => {
  await withApp(async (t, admin) => {
    const id = await makeStation(t, admin, "DEL-1");
    const sensor = await makeSensor(t, admin, id, "SH-DEL", "unit_1");

    const refused = await call(t, "POST", `/admin/devices/station/${id}/delete`, {
      token: admin,
      form: { confirm: "yes" },
    });
    assert.equal(refused.status, 303);
    const back = refused.headers.get("location")!;
    assert.equal(back, `/admin/devices/station/${id}/data?error=station_has_sensors`);
    assert.match(
      await page(t, back, admin),
      /Cannot delete station with active sensors. Please delete all sensors first./,
    );
    assert.ok(await getDevice(t.deps.kv, id));

    // The sensor: a confirmation page without confirm=yes, then deleted.
    const ask = await call(t, "POST", `/admin/devices/station/${id}/sensor/${sensor}/delete`, {
      token: admin,
      form: {},
    });
    assert.equal(ask.status, 200);
    assert.match(await ask.text(), /Are you sure you want to delete the sensor Medidor SH-DEL/);
    assert.ok(await getDevice(t.deps.kv, sensor));
    const gone = await call(t, "POST", `/admin/devices/station/${id}/sensor/${sensor}/delete`, {
      token: admin,
      form: { confirm: "yes" },
    });
    assert.equal(
      gone.headers.get("location"),
      `/admin/devices/station/${id}/data?done=sensor_deleted`,
    );
    assert.equal(await getDevice(t.deps.kv, sensor), null);
    const again = await call(t, "POST", `/admin/devices/station/${id}/sensor/${sensor}/delete`, {
      token: admin,
      form: { confirm: "yes" },
    });
    assert.match(
      await page(t, again.headers.get("location")!, admin),
      /Failed to delete sensor: Sensor not found/,
    );

    const confirm = await call(t, "POST", `/admin/devices/station/${id}/delete`, {
      token: admin,
      form: {},
    });
    assert.equal(confirm.status, 200);
    assert.match(await confirm.text(), /Are you sure you want to delete the station/);
    const deleted = await call(t, "POST", `/admin/devices/station/${id}/delete`, {
      token: admin,
      form: { confirm: "yes" },
    });
    assert.equal(deleted.headers.get("location"), "/admin/devices?done=station_deleted");
    assert.equal(await getDevice(t.deps.kv, id), null);
    assert.match(await page(t, "/admin/devices?done=station_deleted", admin), /Station deleted/);
  });
});

Deno.test("the sensor form creates and edits sensors with the spec's messages", async () => {
  await withApp(async (t, admin) => {
    const tenant = await account(t, "user", { full_name: "Inquilino Beto" });
    const id = await makeStation(t, admin, "SEN-1");
    const form = await page(t, `/admin/devices/station/${id}/sensor/create`, admin);
    assert.match(form, /Add Sensor/);
    assert.match(form, /<option value="unit_1">Depto 1<\/option>/);
    assert.match(form, /Inquilino Beto/);
    assert.match(form, /value="st_SEN-1_…"/, "the sensor station id is shown");

    const bad = await call(t, "POST", `/admin/devices/station/${id}/sensor/create`, {
      token: admin,
      form: { name: "", serial_number: "", unit_id: "", ip_address: "", mqtt_username: "" },
    });
    await refusedWith(bad, [
      "Failed to create sensor",
      "Sensor name is required",
      "Serial number is required",
      "Please assign the sensor to a unit",
      "IP address is required for MQTT configuration",
      "MQTT username is required",
      "MQTT password is required",
    ]);
    assert.equal((await listDevices(t.deps.kv, "sensor")).length, 0);

    const sensor = await makeSensor(
      t,
      admin,
      id,
      "ShellyPro-AB12",
      "unit_1",
      String(tenant.user.id),
    );
    const stored = (await getDevice(t.deps.kv, sensor))!;
    assert.equal(stored.config.mqtt.topic_prefix, "sensor/shellypro-ab12");
    assert.equal(stored.station_id, "st_SEN-1_ShellyPro-AB12");
    assert.equal(stored.tenant_id, tenant.user.id);
    assert.deepEqual(stored.config.sensor, {
      unit_id: "unit_1",
      tenant_id: tenant.user.id,
      ip_address: "192.168.1.50",
    });

    // The unit is taken now: offered disabled to another sensor.
    const second = await page(t, `/admin/devices/station/${id}/sensor/create`, admin);
    assert.match(
      second,
      /<option value="unit_1" disabled="">Depto 1 \(Inquilino Beto\) · Medidor ShellyPro-AB12<\/option>/,
    );
    const taken = await call(t, "POST", `/admin/devices/station/${id}/sensor/create`, {
      token: admin,
      form: sensorForm("OTHER", "unit_1"),
    });
    assert.equal(taken.status, 400);
    assert.match(await taken.text(), /This unit is already assigned to another sensor/);

    const edit = await page(t, `/admin/devices/station/${id}/sensor/${sensor}`, admin);
    assert.match(edit, /Edit Sensor/);
    assert.match(edit, /value="sensor\/shellypro-ab12"/);
    assert.match(edit, /Leave blank to keep the current password/);
    assert.doesNotMatch(edit, /meter-pw-0123456789/);
    const updated = await call(t, "POST", `/admin/devices/station/${id}/sensor/${sensor}`, {
      token: admin,
      form: {
        ...sensorForm("ShellyPro-AB12", "unit_2"),
        name: "Renamed meter",
        tenant_id: "",
        mqtt_password: "",
      },
    });
    assert.equal(updated.status, 303);
    assert.equal(
      updated.headers.get("location"),
      `/admin/devices/station/${id}/data?done=sensor_updated`,
    );
    const after = (await getDevice(t.deps.kv, sensor))!;
    assert.equal(after.name, "Renamed meter");
    assert.equal(after.config.sensor!.unit_id, "unit_2");
    assert.equal(after.tenant_id, null);
    assert.ok(await verifyMqttPassword("meter-pw-0123456789", after.mqtt_password_hash));

    const details = await page(t, `/admin/devices/station/${id}/sensor/${sensor}/data`, admin);
    assert.match(details, /Device Information/);
    assert.match(details, /Renamed meter/);
    assert.match(details, /192\.168\.1\.50/);
    assert.match(details, /Depto 2/);
    assert.match(details, /No tenant/);
    assert.match(details, /href="http:\/\/192\.168\.1\.50"/);
    assert.match(details, /Never seen/);
  });
});

Deno.test("unknown stations and sensors answer 'Station Not Found' (404) with a way back", async () => {
  await withApp(async (t, admin) => {
    for (
      const path of [
        "/admin/devices/station/999/data",
        "/admin/devices/station/999",
        "/admin/devices/station/abc",
        "/admin/devices/station/999/sensor/create",
        "/admin/devices/station/999/sensor/5",
        "/admin/report/station/999",
      ]
    ) {
      const html = await page(t, path, admin, 404);
      assert.match(html, /Station Not Found/, path);
      assert.match(html, /href="\/admin\/devices"/, path);
    }
    const id = await makeStation(t, admin, "NF-1");
    const html = await page(t, `/admin/devices/station/${id}/sensor/77/data`, admin, 404);
    assert.match(html, /Sensor Not Found/);
    const post = await call(t, "POST", "/admin/devices/station/999/sensor/create", {
      token: admin,
      form: sensorForm("X", "unit_1"),
    });
    assert.equal(post.status, 404);
  });
});

Deno.test("the report pages of a station without bills say so and link to unit billing", async () => {
  await withApp(async (t, admin) => {
    const id = await makeStation(t, admin, "REP-1");
    const station = await page(t, `/admin/report/station/${id}`, admin);
    assert.match(station, /Station Report/);
    assert.match(station, /No bills for this period/);
    assert.match(station, /href="\/admin\/units-billing"/);
    const unit = await page(t, `/admin/report/station/${id}/unit/unit_1`, admin);
    assert.match(unit, /Monthly Report/);
    assert.match(unit, /No pricing zone assigned/);
  });
});

Deno.test("customers, tenants and visitors are kept out of the device pages", async () => {
  await withApp(async (t, admin) => {
    const id = await makeStation(t, admin, "SEC-1");
    const customer = await account(t, "customer");
    const tenant = await account(t, "user");
    for (const who of [customer.token, tenant.token]) {
      for (
        const path of [
          "/admin/devices",
          `/admin/devices/station/${id}/data`,
          "/admin/devices/station/create",
        ]
      ) {
        const res = await call(t, "GET", path, { token: who });
        assert.equal(res.status, 302, path);
        assert.equal(res.headers.get("location"), "/");
      }
      const del = await call(t, "POST", `/admin/devices/station/${id}/delete`, {
        token: who,
        form: { confirm: "yes" },
      });
      assert.equal(del.status, 302);
      const create = await call(t, "POST", "/admin/devices/station/create", {
        token: who,
        form: stationForm("INTRUDER"),
      });
      assert.equal(create.status, 302);
    }
    const anon = await call(t, "GET", "/admin/devices");
    assert.equal(anon.headers.get("location"), "/login?next=%2Fadmin%2Fdevices");
    assert.ok(await getDevice(t.deps.kv, id));
    assert.equal((await listDevices(t.deps.kv)).length, 1);
  });
});

Deno.test("a failure while loading a station shows 'Error Loading Station' with Go Back and Try Again", async () => {
  const kv = await Deno.openKv(":memory:");
  // Reading devices fails; everything else (sessions, notifications) works.
  const isDevices = (key: unknown) =>
    Array.isArray(key) && typeof key[0] === "string" && key[0].startsWith("devices");
  const broken = new Proxy(kv, {
    get(target, prop) {
      const v = Reflect.get(target, prop);
      if (typeof v !== "function") return v;
      if (prop === "get" || prop === "list" || prop === "getMany") {
        return (first: unknown, ...rest: unknown[]) => {
          const key = prop === "list"
            ? (first as { prefix?: unknown }).prefix
            : prop === "getMany"
            ? (first as unknown[])[0]
            : first;
          if (isDevices(key)) throw new Error("storage unavailable");
          return v.call(target, first, ...rest);
        };
      }
      return v.bind(target);
    },
  });
  const t = await testApp({ kv: broken });
  try {
    const { token } = await account(t, "admin");
    const html = await page(t, "/admin/devices/station/1/data", token, 500);
    assert.match(html, /Error Loading Station/);
    assert.match(html, /href="\/admin\/devices"[^>]*>Go Back/);
    assert.match(html, /href="\/admin\/devices\/station\/1\/data"[^>]*>Try Again/);
    const list = await page(t, "/admin/devices", token);
    assert.match(list, /The stations could not be loaded/);
  } finally {
    t.close();
    kv.close();
  }
});
