/**
 * The sensor form (add and edit) under a station: name, serial number, unit and tenant,
 * IP address, MQTT username and write-only password, the topic prefix and the sensor
 * station id shown read-only. A plain POST form; errors come back inline.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { Field, SelectField } from "../Field.tsx";
import { DeviceForm, DeviceTextField, FormSection, RequiredMark } from "./DeviceFormParts.tsx";
import { Island } from "../render.tsx";
import { MqttSection } from "./MqttFields.tsx";
import ClearErrors from "../../islands/ClearErrors.tsx";
import { sensorStationId, sensorTopicPrefix } from "../../core/devices.ts";

/** What the form shows and posts back. */
export interface SensorFormValues {
  name: string;
  serial_number: string;
  unit_id: string;
  /** The tenant's id as a string, "" for none. */
  tenant_id: string;
  ip_address: string;
  /** On the station's main feed (the building's meter for its CFE bill). */
  master: boolean;
  mqtt_username: string;
}

/** A unit the sensor can be assigned to. */
export interface UnitChoice {
  id: string;
  name: string;
  /** The unit's tenant, worded, or null. */
  tenant: string | null;
  /** The name of another sensor measuring this unit, or null when it is free. */
  takenBy: string | null;
}

/** A tenant the sensor can be assigned to. */
interface TenantChoice {
  id: number;
  name: string;
  email: string;
}

/** Props of {@link SensorForm}. */
interface SensorFormProps {
  t: Translate;
  station: { id: number; name: string; station_id: string };
  /** The sensor's id when editing, null when adding. */
  id: number | null;
  values: SensorFormValues;
  units: UnitChoice[];
  tenants: TenantChoice[];
  fieldErrors: Record<string, string>;
  error?: string;
}

type TextKey = "name" | "serial_number" | "ip_address" | "mqtt_username";

/** The form. */
export function SensorForm(
  { t, station, id, values, units, tenants, fieldErrors: fe, error }: SensorFormProps,
) {
  const editing = id !== null;
  const F = (k: string, p?: Record<string, string | number>) => t(`devices.sensor_form.${k}`, p);
  const req = (required: boolean) => <RequiredMark t={t} required={required} />;
  const text = (key: TextKey, o: { placeholder?: string; auto?: string } = {}) => (
    <DeviceTextField
      id={key}
      label={F(`fields.${key}`)}
      mark={req(true)}
      value={values[key]}
      required
      error={fe[key]}
      {...o}
    />
  );
  const serial = values.serial_number.trim();
  const back = `/admin/devices/station/${station.id}/data`;
  const action = editing
    ? `/admin/devices/station/${station.id}/sensor/${id}`
    : `/admin/devices/station/${station.id}/sensor/create`;
  return (
    <DeviceForm
      kind="sensor"
      F={F}
      editing={editing}
      subtitle={F("subtitle", { station: station.name })}
      back={back}
      action={action}
      error={error}
    >
      <Island of={ClearErrors} props={{}} />
      <FormSection id="sensor-basics" title={F("sections.basics")}>
        {text("name", { placeholder: F("placeholders.name") })}
        {text("serial_number", { placeholder: F("placeholders.serial_number") })}
        <Field
          id="sensor_station_id"
          label={F("fields.station_id")}
          hint={F("hints.station_id", {
            station_id: station.station_id,
            serial: serial || F("fields.serial_number"),
          })}
          className="field field-wide"
        >
          <input
            id="sensor_station_id"
            type="text"
            className="readonly-value"
            readOnly
            value={sensorStationId(station.station_id, serial || "…")}
            data-testid="sensor-station-id"
          />
        </Field>
      </FormSection>
      <FormSection id="sensor-assignment" title={F("sections.assignment")}>
        <SelectField
          id="unit_id"
          label={<>{F("fields.unit")} {req(true)}</>}
          hint={units.length === 0 && F("errors.no_units")}
          error={fe.unit_id}
          value={values.unit_id}
          required
          empty={F("placeholders.select_unit")}
          options={units.map((u) => ({
            value: u.id,
            label: [
              u.name,
              u.tenant ? ` (${u.tenant})` : "",
              u.takenBy ? ` · ${u.takenBy}` : "",
            ].join(""),
            disabled: u.takenBy !== null,
          }))}
        />
        <SelectField
          id="tenant_id"
          label={<>{F("fields.tenant")} {req(false)}</>}
          hint={F("hints.tenant_optional")}
          hintLinked
          error={fe.tenant_id}
          value={values.tenant_id}
          empty={t("devices.location.no_tenant")}
          options={tenants.map((x) => ({ value: String(x.id), label: `${x.name} · ${x.email}` }))}
        />
        <label className="field field-wide checkbox-field" htmlFor="master">
          <input
            id="master"
            name="master"
            type="checkbox"
            value="yes"
            defaultChecked={values.master}
            data-testid="sensor-master"
          />{" "}
          {t("cfe_bill.master_meter.label")}
          <small className="hint">{t("cfe_bill.master_meter.hint")}</small>
        </label>
      </FormSection>
      <MqttSection
        t={t}
        F={F}
        editing={editing}
        id="sensor-mqtt"
        topic={{
          value: serial ? sensorTopicPrefix(serial) : "sensor/…",
          hint: F("hints.topic_prefix", {
            serial: serial.toLowerCase() || F("fields.serial_number"),
          }),
        }}
        error={fe.mqtt_password}
      >
        {text("ip_address", { placeholder: F("placeholders.ip_address") })}
        {text("mqtt_username")}
      </MqttSection>
    </DeviceForm>
  );
}
