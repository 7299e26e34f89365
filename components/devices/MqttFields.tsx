/**
 * The MQTT section of the station and sensor forms: the username, the password (write-only)
 * and the read-only topic prefix.
 */
import type { ReactNode } from "react";
import type { Translate } from "../../services/platform/i18n.ts";
import { FormSection, type FormTexts, RequiredMark } from "./DeviceFormParts.tsx";
import { errAttrs, Field } from "../Field.tsx";
import { MQTT_PASSWORD_MAX_LENGTH, MQTT_PASSWORD_MIN_LENGTH } from "../../core/device_rules.ts";

/** Props of {@link MqttPasswordField}. */
interface MqttPasswordFieldProps {
  label: ReactNode;
  editing: boolean;
  /** Kept when the no-JavaScript form comes back after an add/remove action. */
  value?: string;
  placeholder?: string;
  /** Shown on edit: a blank password keeps the current one. */
  keepHint: string;
  error?: string;
}

/** The MQTT password: required on create; on edit blank keeps the current one. */
function MqttPasswordField(p: MqttPasswordFieldProps) {
  return (
    <Field
      id="mqtt_password"
      label={p.label}
      hint={p.editing && p.keepHint}
      error={p.error}
    >
      <input
        id="mqtt_password"
        name="mqtt_password"
        type="password"
        autoComplete="new-password"
        minLength={MQTT_PASSWORD_MIN_LENGTH}
        maxLength={MQTT_PASSWORD_MAX_LENGTH}
        defaultValue={p.value}
        placeholder={p.placeholder}
        aria-required={!p.editing || undefined}
        {...errAttrs("mqtt_password", p.error)}
      />
    </Field>
  );
}

/** The topic prefix the server derives from the serial number, shown read-only. */
function TopicPrefixField(
  { label, value, hint, wide }: { label: string; value: string; hint: string; wide?: boolean },
) {
  return (
    <Field
      id="topic_prefix"
      label={label}
      hint={hint}
      className={wide ? "field field-wide" : "field"}
    >
      <input
        id="topic_prefix"
        type="text"
        className="readonly-value"
        readOnly
        value={value}
        data-testid="topic-prefix"
      />
    </Field>
  );
}

/** Props of {@link MqttSection}. */
interface MqttSectionProps {
  t: Translate;
  F: FormTexts;
  editing: boolean;
  /** The section heading's id. */
  id: string;
  /** The fields before the password (the username, ...). */
  children: ReactNode;
  /** Only kept across the no-JavaScript add/remove round trips. */
  password?: { value?: string; placeholder?: string };
  /** The topic prefix and its hint; wide: the whole row. */
  topic: { value: string; hint: string; wide?: boolean };
  error?: string;
}

/** The section: the given fields, the password (required on create) and the topic prefix. */
export function MqttSection(
  { t, F, editing, id, children, password, topic, error }: MqttSectionProps,
) {
  return (
    <FormSection id={id} title={F("sections.mqtt")}>
      {children}
      <MqttPasswordField
        label={
          <>
            {F("fields.mqtt_password")} <RequiredMark t={t} required={!editing} />
          </>
        }
        editing={editing}
        value={password?.value}
        placeholder={password?.placeholder}
        keepHint={F("hints.password_keep")}
        error={error}
      />
      <TopicPrefixField
        wide={topic.wide}
        label={F("fields.topic_prefix")}
        value={topic.value}
        hint={topic.hint}
      />
    </FormSection>
  );
}
