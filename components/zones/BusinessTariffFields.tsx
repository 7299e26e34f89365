/**
 * The zone form's business tariff card (issue 34): the time band schedule, the price of each
 * band, the capacity demand's floor and the power factor threshold. Plain fields; the demand
 * prices and switches stay in the industrial components (spec 001).
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { BAND_SCHEDULE_IDS } from "../../core/tou.ts";
import type { BusinessFormValues } from "../../core/zone_business.ts";
import { SelectField } from "../Field.tsx";
import { Card } from "../kit/mod.ts";
import { NumberField } from "./NumberField.tsx";

/** The card. */
export function BusinessTariffFields(
  { t, v, fe }: { t: Translate; v: BusinessFormValues; fe: Record<string, string> },
) {
  const F = (k: string) => t(`business_tariff.form.${k}`);
  const num = (key: Exclude<keyof BusinessFormValues, "tou_schedule">, hint?: string) => (
    <NumberField name={key} label={F(key)} value={v[key]} hint={hint} error={fe[key]} />
  );
  return (
    <Card title={F("title")} headingId="zf-business">
      <p className="hint">{F("intro")}</p>
      <div className="form-grid">
        <SelectField
          id="tou_schedule"
          label={F("tou_schedule")}
          hint={F("schedule_hint")}
          error={fe.tou_schedule}
          value={v.tou_schedule}
          empty={F("schedule_none")}
          options={BAND_SCHEDULE_IDS.map((id) => ({ value: id, label: F(`schedules.${id}`) }))}
        />
        {num("price_base")}
        {num("price_intermedia")}
        {num("price_punta")}
        {num("capacity_floor_percentage", F("floor_hint"))}
        {num("power_factor_threshold", F("pf_hint"))}
      </div>
    </Card>
  );
}
