/**
 * Alert rules (issue 30): what each template watches, its parameters and their defaults, the
 * scope a rule covers, and the body an admin creates one with. Pure: rules are stored by
 * db/alert_rules.ts and evaluated by core/alerts_eval.ts and core/alerts_daily.ts.
 */
import { z } from "zod";

/** The templates a rule is made from. */
export const ALERT_TEMPLATES = [
  "no_data",
  "voltage_band",
  "phase_lost",
  "reverse_power",
  "low_pf",
  "high_power",
  "night_usage",
  "daily_usage",
  "cert_expiry",
] as const;
/** A template. */
export type AlertTemplate = typeof ALERT_TEMPLATES[number];

/** Templates evaluated on each reading in ingest's path. */
export const READING_TEMPLATES: readonly AlertTemplate[] = [
  "voltage_band",
  "phase_lost",
  "reverse_power",
  "low_pf",
  "high_power",
];

/** Templates about a unit's consumption: a tenant sees their alerts as insights. */
export const CONSUMPTION_TEMPLATES: readonly AlertTemplate[] = ["night_usage", "daily_usage"];

/** What a rule covers: every station, a zone's, one station's meters, or one meter. */
export type AlertScope =
  | { kind: "all" }
  | { kind: "zone"; id: number }
  | { kind: "station"; id: number }
  | { kind: "meter"; serial: string };

/** A rule's numbers (each template reads those it needs; the rest keep their defaults). */
export interface AlertParams {
  /** Minutes the condition must hold before an alert opens (and be gone before it clears). */
  minutes: number;
  /** Nominal voltage (V) of the band: 127, 220 or 230. */
  nominal_v: number;
  /** Half-width of the voltage band, % of nominal. */
  tolerance_pct: number;
  /** Negative active power (W) tolerated before a clamp counts as reversed. */
  tolerance_w: number;
  /** Power factor limit. */
  pf: number;
  /** Power limit (kW). */
  kw: number;
  /** Night or day consumption above this many times its baseline. */
  factor: number;
  /** Night window, local hours [start, end). */
  night_start: number;
  night_end: number;
  /** Days before a certificate ends. */
  days: number;
}

/** The defaults of every parameter. */
export const DEFAULT_PARAMS: AlertParams = {
  minutes: 10,
  nominal_v: 127,
  tolerance_pct: 10,
  tolerance_w: 50,
  pf: 0.8,
  kw: 10,
  factor: 2,
  night_start: 0,
  night_end: 5,
  days: 30,
};

/** The parameters each template shows on its form (besides the scope). */
export const TEMPLATE_PARAMS: Readonly<Record<AlertTemplate, readonly (keyof AlertParams)[]>> = {
  no_data: ["minutes"],
  voltage_band: ["nominal_v", "tolerance_pct", "minutes"],
  phase_lost: ["minutes"],
  reverse_power: ["tolerance_w", "minutes"],
  low_pf: ["pf", "minutes"],
  high_power: ["kw", "minutes"],
  night_usage: ["factor", "night_start", "night_end"],
  daily_usage: ["factor"],
  cert_expiry: ["days"],
};

/** Default minutes per template (readings: short; silence: the N). */
const TEMPLATE_MINUTES: Partial<Record<AlertTemplate, number>> = {
  phase_lost: 1,
  reverse_power: 5,
  low_pf: 15,
  high_power: 15,
  no_data: 30,
};

/** A stored rule. */
export interface AlertRule {
  id: string;
  template: AlertTemplate;
  scope: AlertScope;
  params: AlertParams;
  enabled: boolean;
  /** An open, unacknowledged alert repeats its message every this many hours (0: never). */
  repeat_hours: number;
  /** …and goes to `escalate_to` too after this many hours (0: never). */
  escalate_hours: number;
  /** Account ids of the second list. */
  escalate_to: number[];
  created_at: number;
  created_by: number;
}

const num = (min: number, max: number) => z.coerce.number().min(min).max(max);

/** The body of a new rule (the form's or the API's); parameters left out take defaults. */
export const ruleInputSchema = z.object({
  template: z.enum(ALERT_TEMPLATES),
  scope: z.enum(["all", "zone", "station", "meter"]).default("all"),
  scope_id: z.string().trim().max(100).optional(),
  minutes: num(1, 10_080).optional(),
  nominal_v: z.coerce.number().refine((v) => [127, 220, 230].includes(v)).optional(),
  tolerance_pct: num(1, 50).optional(),
  tolerance_w: num(0, 100_000).optional(),
  pf: num(0.1, 1).optional(),
  kw: num(0.1, 100_000).optional(),
  factor: num(1.1, 100).optional(),
  night_start: z.coerce.number().int().min(0).max(23).optional(),
  night_end: z.coerce.number().int().min(1).max(24).optional(),
  days: z.coerce.number().refine((d) => d === 30 || d === 7).optional(),
  repeat_hours: num(0, 720).default(4),
  escalate_hours: num(0, 720).default(12),
  escalate_to: z.array(z.coerce.number().int().positive()).max(50).default([]),
}).refine((b) => b.scope === "all" || (b.scope_id ?? "") !== "", {
  path: ["scope_id"],
  message: "alerts.validation.scope_id",
}).refine((b) => b.scope === "all" || b.scope === "meter" || /^\d+$/.test(b.scope_id ?? ""), {
  path: ["scope_id"],
  message: "alerts.validation.scope_id",
});
/** A validated rule body. */
export type RuleInput = z.infer<typeof ruleInputSchema>;

/** The rule a validated body makes. */
export function ruleOf(input: RuleInput, id: string, by: number, now: number): AlertRule {
  const scope: AlertScope = input.scope === "all"
    ? { kind: "all" }
    : input.scope === "meter"
    ? { kind: "meter", serial: input.scope_id!.toUpperCase() }
    : { kind: input.scope, id: Number(input.scope_id) };
  const params: AlertParams = {
    ...DEFAULT_PARAMS,
    minutes: TEMPLATE_MINUTES[input.template] ?? DEFAULT_PARAMS.minutes,
  };
  for (const k of TEMPLATE_PARAMS[input.template]) {
    const v = input[k];
    if (v !== undefined) params[k] = v;
  }
  return {
    id,
    template: input.template,
    scope,
    params,
    enabled: true,
    repeat_hours: input.repeat_hours,
    escalate_hours: input.escalate_hours,
    escalate_to: input.escalate_to,
    created_at: now,
    created_by: by,
  };
}

/** Where a meter sits: what a scope is matched against. */
export interface MeterPlace {
  serial: string;
  /** The meter's device (a sensor, or a station metering itself). */
  device_id: number;
  station_id: number;
  zone_id: number | null;
  unit_id: string | null;
}

/** Whether a rule's scope covers a meter. */
export function covers(scope: AlertScope, m: MeterPlace): boolean {
  switch (scope.kind) {
    case "all":
      return true;
    case "zone":
      return m.zone_id === scope.id;
    case "station":
      return m.station_id === scope.id;
    case "meter":
      return m.serial.toUpperCase() === scope.serial.toUpperCase();
  }
}

/** The alert list's query (API and page). */
export const alertsQuerySchema = z.object({
  state: z.enum(["active", "resolved", "all"]).default("all"),
  template: z.enum(ALERT_TEMPLATES).optional(),
  station_id: z.coerce.number().int().positive().optional(),
  device_id: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(25),
});
/** A validated alert list query. */
export type AlertsQuery = z.infer<typeof alertsQuerySchema>;

/** The body of an acknowledgement. */
export const ackInputSchema = z.object({ note: z.string().max(500).default("") });
