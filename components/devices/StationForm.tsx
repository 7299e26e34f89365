/**
 * The station form (create and edit): basics, physical address, SSR and unit
 * configuration (the StationEditor island), MQTT configuration. A plain POST form that
 * works without JavaScript; errors come back inline from the server.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { errAttrs, Field, FieldError } from "../Field.tsx";
import { DeviceForm, DeviceTextField, FormSection, RequiredMark } from "./DeviceFormParts.tsx";
import { Island } from "../render.tsx";
import { MqttSection } from "./MqttFields.tsx";
import ClearErrors from "../../islands/ClearErrors.tsx";
import StationEditor from "../../islands/StationEditor.tsx";
import type { EditorSsr, EditorUnit } from "../../core/station_editor.ts";
import { MAX_GPIO_PIN, MAX_SSRS } from "../../core/devices.ts";

/** What the form shows and posts back. */
export interface StationFormValues {
  name: string;
  serial_number: string;
  station_id: string;
  street: string;
  street_number: string;
  colony: string;
  postal_code: string;
  city: string;
  state: string;
  country: string;
  indications: string;
  mqtt_username: string;
  /** The pricing zone's id as text, "" for none. */
  zone_id: string;
  /** Only kept across the no-JavaScript add/remove round trips. */
  mqtt_password: string;
  ssrs: EditorSsr[];
  units: EditorUnit[];
}

/** Empty values of a new station. */
export function emptyStationValues(): StationFormValues {
  return {
    name: "",
    serial_number: "",
    station_id: "",
    street: "",
    street_number: "",
    colony: "",
    postal_code: "",
    city: "",
    state: "",
    country: "",
    indications: "",
    mqtt_username: "",
    zone_id: "",
    mqtt_password: "",
    ssrs: [],
    units: [],
  };
}

/** Props of {@link StationForm}. */
interface StationFormProps {
  t: Translate;
  /** The station's id when editing, null when creating. */
  id: number | null;
  values: StationFormValues;
  /** Translated errors by form field (`ssrs` and `units` for the editor). */
  fieldErrors: Record<string, string>;
  /** 'Failed to create station' / 'Failed to update station', with detail. */
  error?: string;
  /** The pricing zones to choose from (id and name), or null when they failed to load. */
  zones: { id: number; name: string }[] | null;
}

type TextKey =
  | "name"
  | "serial_number"
  | "station_id"
  | "street"
  | "street_number"
  | "colony"
  | "postal_code"
  | "city"
  | "state"
  | "country"
  | "mqtt_username";

/** The form. */
export function StationForm({ t, id, values, fieldErrors: fe, error, zones }: StationFormProps) {
  const editing = id !== null;
  const F = (k: string, p?: Record<string, string | number>) => t(`devices.station_form.${k}`, p);
  const text = (
    key: TextKey,
    o: { required?: boolean; label?: string; placeholder?: string; auto?: string } = {},
  ) => (
    <DeviceTextField
      id={key}
      label={o.label ?? F(`fields.${key}`)}
      mark={<RequiredMark t={t} required={!!o.required} />}
      value={values[key]}
      placeholder={o.placeholder ?? F(`placeholders.${key}`)}
      auto={o.auto}
      required={o.required}
      error={fe[key]}
    />
  );
  const serial = values.serial_number.trim();
  const back = editing ? `/admin/devices/station/${id}/data` : "/admin/devices";
  return (
    <DeviceForm
      kind="station"
      F={F}
      editing={editing}
      subtitle={F(editing ? "subtitle_edit" : "subtitle_create")}
      back={back}
      action={editing ? `/admin/devices/station/${id}` : "/admin/devices/station/create"}
      error={error}
    >
      {/* Enter in a text field saves (the first submit button is the default one). */}
      <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true">
        {F(editing ? "update" : "create")}
      </button>
      <Island of={ClearErrors} props={{}} />
      <FormSection id="basics-title" title={F("sections.basics")}>
        {text("name", { required: true })}
        {text("serial_number", { required: true })}
        {text("station_id", { required: true })}
        <div className="field">
          <label htmlFor="zone_id">
            {F("fields.zone")} <RequiredMark t={t} required={false} />
          </label>
          <select
            id="zone_id"
            name="zone_id"
            defaultValue={values.zone_id}
            aria-describedby={fe.zone_id ? "zone_id-error" : "zone_id-hint"}
            aria-invalid={fe.zone_id ? true : undefined}
          >
            <option value="">{F("fields.zone_none")}</option>
            {(zones ?? []).map((z) => <option key={z.id} value={String(z.id)}>{z.name}</option>)}
            {zones !== null && values.zone_id !== "" &&
              !zones.some((z) => String(z.id) === values.zone_id) && (
              <option value={values.zone_id}>{values.zone_id}</option>
            )}
          </select>
          <FieldError id="zone_id" message={fe.zone_id} />
          <p className="hint" id="zone_id-hint">
            {zones === null ? F("errors.load_zones_failed") : F("hints.zone_optional")}
          </p>
        </div>
      </FormSection>
      <FormSection id="address-title" title={F("sections.address")}>
        {text("street", { auto: "address-line1" })}
        {text("street_number")}
        {text("colony")}
        {text("postal_code", { auto: "postal-code" })}
        {text("city", { required: true })}
        {text("state", { required: true })}
        {text("country", { required: true })}
        <Field
          id="indications"
          label={
            <>
              {F("fields.indications")} <RequiredMark t={t} required={false} />
            </>
          }
          error={fe.indications}
          className="field field-wide"
        >
          <textarea
            id="indications"
            name="indications"
            maxLength={1000}
            defaultValue={values.indications}
            placeholder={F("placeholders.indications")}
            {...errAttrs("indications", fe.indications)}
          />
        </Field>
      </FormSection>
      <Island
        of={StationEditor}
        props={{
          ssrs: values.ssrs,
          units: values.units,
          errors: {
            ...(fe.ssrs ? { ssrs: fe.ssrs } : {}),
            ...(fe.units ? { units: fe.units } : {}),
          },
          texts: {
            ssrTitle: F("sections.ssr"),
            unitsTitle: F("sections.units"),
            ssrHint: F("hints.ssr_range"),
            unitsHint: F("hints.units"),
            ssrName: F("fields.ssr_name"),
            ssrType: F("fields.ssr_type"),
            normal: F("ssr_types.normal"),
            emergency: F("ssr_types.emergency"),
            gpio: F("fields.gpio_pin"),
            gpioLabel: F("gpio_label", { pin: "{pin}" }),
            ssrDefault: F("placeholders.ssr_name", { n: "{n}" }),
            unitDefault: F("placeholders.unit_name", { n: "{n}" }),
            ssrCount: F("fields.ssr_count"),
            addSsr: F("add_ssr"),
            removeSsr: F("remove_ssr"),
            unitName: F("fields.unit_name"),
            unitSsr: F("fields.unit_ssr"),
            addUnit: F("add_unit"),
            removeUnit: F("remove_unit"),
            noSsrs: F("no_ssrs"),
            noUnits: F("no_units"),
            refusals: {
              maxSsrs: F("validation.max_ssrs", { max: MAX_SSRS }),
              maxGpio: F("validation.max_gpio", { max: MAX_GPIO_PIN }),
              ssrInUse: F("validation.cannot_remove_ssr"),
              noSsrs: F("validation.add_ssrs_first"),
            },
          },
        }}
      />
      <MqttSection
        t={t}
        F={F}
        editing={editing}
        id="mqtt-title"
        password={{ value: values.mqtt_password, placeholder: F("placeholders.mqtt_password") }}
        topic={{
          wide: true,
          value: `station/${serial || "…"}`,
          hint: F("hints.topic_prefix", { serial: serial || F("fields.serial_number") }),
        }}
        error={fe.mqtt_password}
      >
        {text("mqtt_username", { required: true })}
      </MqttSection>
    </DeviceForm>
  );
}
