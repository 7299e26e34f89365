/**
 * Names refuse control characters and bidirectional overrides (issue 25, item 3): registration,
 * the profile, the admin's account form, stations, their units, sensors and zones answer 400
 * naming the field, in the user's language, and store nothing.
 */
import assert from "node:assert/strict";
import {
  account,
  call,
  putProfile,
  seedAccessCode,
  sensorBody,
  stationBody,
  testApp,
  zoneBody,
} from "../_helpers.ts";
import { listUsers } from "../../db/users.ts";
import { listDevices } from "../../db/devices.ts";
import { listZones } from "../../db/zones.ts";

const BAD = [
  "Ana\u0000Pérez",
  "\tAna Pérez",
  "Ana\u0007",
  "Ana\u007f",
  "\u202eAna Pérez",
  "A\u2067na",
];
const MESSAGE = {
  en: "Names cannot contain control or text-direction characters",
  es: "El nombre no puede contener caracteres de control ni de dirección del texto",
};

Deno.test("names with control or text-direction characters are refused everywhere, naming the field", async () => {
  const t = await testApp();
  const admin = await account(t, "admin");
  const me = await account(t, "user");
  await seedAccessCode(t.deps.kv, "TENA2345", "user");
  const station = stationBody({
    name: "Norte",
    serial: "ST-N1",
    mqtt: { username: "st-n1", password: "station-pass-0123" },
    units: [{ id: "unit_1", name: "Depto 1" }],
  });
  const stationId = (await (await call(t, "POST", "/api/devices", {
    token: admin.token,
    json: station,
  })).json()).id;
  const sensor = (name: string) => ({
    ...sensorBody({
      serial: "SIM-N1",
      unit: "unit_1",
      mqtt: { username: "sim-n1", password: "pw-sim-n1-0123456789" },
    }),
    name,
  });
  const before = {
    users: (await listUsers(t.deps.kv)).length,
    devices: (await listDevices(t.deps.kv)).length,
    zones: (await listZones(t.deps.kv)).length,
  };
  for (const name of BAD) {
    const cases: [string, Response | Promise<Response>, string][] = [
      [
        "full_name",
        call(t, "POST", "/auth/register", {
          cookie: "auth_language=es",
          json: {
            email: "ana@test.mx",
            password: "Quiet-Harbor-71",
            full_name: name,
            phone: "+525512345678",
            role: "user",
            accessCode: "TENA2345",
          },
        }),
        "es",
      ],
      ["full_name", putProfile(t, me, { full_name: name }), "en"],
      [
        "full_name",
        call(t, "POST", "/api/users", {
          token: admin.token,
          json: {
            email: "bea@test.mx",
            full_name: name,
            role: "user",
            password: "Quiet-Harbor-71",
          },
        }),
        "en",
      ],
      [
        "company_name",
        call(t, "POST", "/api/users", {
          token: admin.token,
          json: {
            email: "cia@test.mx",
            full_name: "Cía Norte",
            role: "customer",
            company_name: `Norte ${name} SA`,
            password: "Quiet-Harbor-71",
          },
        }),
        "en",
      ],
      [
        "name",
        call(t, "POST", "/api/devices", {
          token: admin.token,
          json: { ...station, serial_number: "ST-N2", station_id: "st-n2", name: `N ${name}` },
        }),
        "en",
      ],
      [
        "units",
        call(t, "PUT", `/api/devices/${stationId}`, {
          token: admin.token,
          json: {
            ...station,
            config: {
              ...station.config,
              station: {
                ...station.config.station,
                units: [{ id: "unit_1", name, ssr_id: "ssr_1" }],
              },
            },
          },
        }),
        "en",
      ],
      [
        "name",
        call(t, "POST", `/api/devices/${stationId}/sensors`, {
          token: admin.token,
          json: sensor(`M ${name}`),
        }),
        "en",
      ],
      [
        "name",
        call(t, "POST", "/api/zones", {
          token: admin.token,
          json: zoneBody({ name: `Z ${name}` }),
        }),
        "en",
      ],
    ];
    for (const [field, pending, lang] of cases) {
      const res = await pending;
      const body = await res.json();
      const where = `${JSON.stringify(name)} ${field} ${res.url}`;
      assert.equal(res.status, 400, `${where}: ${JSON.stringify(body)}`);
      const errors = body.errors ?? body.fields ?? {};
      assert.equal(
        errors[field],
        MESSAGE[lang as "en" | "es"],
        `${where}: ${JSON.stringify(body)}`,
      );
    }
  }
  assert.equal((await listUsers(t.deps.kv)).length, before.users);
  assert.equal((await listDevices(t.deps.kv)).length, before.devices);
  assert.equal((await listZones(t.deps.kv)).length, before.zones);
  const stored = await call(t, "GET", `/api/devices/${stationId}`, { token: admin.token });
  assert.equal((await stored.json()).config.station.units[0].name, "Depto 1");
  t.close();
});
