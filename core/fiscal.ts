/**
 * A taxpayer's fiscal data for a CFDI 4.0 (issue 31): RFC, legal name, fiscal regime, ZIP of
 * the fiscal address and CFDI use, checked as the SAT's catalogues and schema require. Pure.
 *
 * Sources, cited where used below:
 * - the RFC pattern: the SAT's CFDI 4.0 schema (cfdv40.xsd, type `t_RFC`):
 *   `[A-ZÑ&]{3,4}[0-9]{2}(0[1-9]|1[012])(0[1-9]|[12][0-9]|3[01])[A-Z0-9]{2}[0-9A]`; 12
 *   characters (3 letters) for a persona moral, 13 (4 letters) for a persona física;
 * - the generic RFCs of the Anexo 20 guide: XAXX010101000 (público en general) and
 *   XEXX010101000 (residentes en el extranjero), never a named taxpayer's;
 * - `c_RegimenFiscal` and `c_UsoCFDI` of the SAT's catalogue catCFDI (CFDI 4.0): each regime's
 *   person type ("Física"/"Moral" columns) and each use's "Régimen Fiscal Receptor" column.
 */
import { z } from "zod";
import { isCleanName, NAME_CONTROL_KEY } from "./name_text.ts";

/** Person type of an RFC. */
export type PersonType = "fisica" | "moral";

/** The SAT's RFC pattern (cfdv40.xsd `t_RFC`). */
export const RFC_PATTERN =
  /^[A-ZÑ&]{3,4}[0-9]{2}(0[1-9]|1[012])(0[1-9]|[12][0-9]|3[01])[A-Z0-9]{2}[0-9A]$/;

/** RFC of "público en general" (Anexo 20), the receiver of a global invoice. */
export const PUBLIC_RFC = "XAXX010101000";
/** RFC of foreign residents without a Mexican RFC (Anexo 20). */
export const FOREIGN_RFC = "XEXX010101000";

/** Whether an RFC is one of the generic ones (refused for a named invoice). */
export function isGenericRfc(rfc: string): boolean {
  return rfc === PUBLIC_RFC || rfc === FOREIGN_RFC;
}

/** The person type of a valid RFC: 12 characters a persona moral, 13 a persona física. */
export function personTypeOf(rfc: string): PersonType {
  return rfc.length === 12 ? "moral" : "fisica";
}

/**
 * `c_RegimenFiscal` (catCFDI): code → the person types it applies to. The descriptions are
 * the locale's (`fiscal.regimes.<code>`).
 */
export const REGIMES: Readonly<Record<string, readonly PersonType[]>> = {
  "601": ["moral"], // General de Ley Personas Morales
  "603": ["moral"], // Personas Morales con Fines no Lucrativos
  "605": ["fisica"], // Sueldos y Salarios e Ingresos Asimilados a Salarios
  "606": ["fisica"], // Arrendamiento
  "607": ["fisica"], // Régimen de Enajenación o Adquisición de Bienes
  "608": ["fisica"], // Demás ingresos
  "610": ["fisica", "moral"], // Residentes en el Extranjero sin Establecimiento Permanente
  "611": ["fisica"], // Ingresos por Dividendos (socios y accionistas)
  "612": ["fisica"], // Personas Físicas con Actividades Empresariales y Profesionales
  "614": ["fisica"], // Ingresos por intereses
  "615": ["fisica"], // Régimen de los ingresos por obtención de premios
  "616": ["fisica"], // Sin obligaciones fiscales
  "620": ["moral"], // Sociedades Cooperativas de Producción que optan por diferir sus ingresos
  "621": ["fisica"], // Incorporación Fiscal
  "622": ["moral"], // Actividades Agrícolas, Ganaderas, Silvícolas y Pesqueras
  "623": ["moral"], // Opcional para Grupos de Sociedades
  "624": ["moral"], // Coordinados
  "625": ["fisica"], // Actividades Empresariales con ingresos a través de Plataformas Tecnológicas
  "626": ["fisica", "moral"], // Régimen Simplificado de Confianza
};

/** Regimes a business may deduct general expenses under (catCFDI `c_UsoCFDI`, G01–G03). */
const BUSINESS = ["601", "603", "606", "612", "620", "621", "622", "623", "624", "625", "626"];

/**
 * The `c_UsoCFDI` uses offered for an electricity bill → the receiver regimes the catalogue
 * allows each with ("Régimen Fiscal Receptor" column of catCFDI).
 */
export const USES: Readonly<Record<string, readonly string[]>> = {
  G01: BUSINESS, // Adquisición de mercancías
  G03: BUSINESS, // Gastos en general
  // Sin efectos fiscales: every regime.
  S01: Object.keys(REGIMES),
};

/** The use when none is chosen (issue 31). */
export const DEFAULT_USE = "G03";

/** A taxpayer's fiscal data as stored. */
export interface FiscalData {
  rfc: string;
  legal_name: string;
  /** `c_RegimenFiscal` code. */
  tax_system: string;
  /** ZIP of the fiscal address (5 digits). */
  zip: string;
  /** `c_UsoCFDI` code. */
  use: string;
}

/** The regimes valid for a person type, in code order. */
export function regimesFor(type: PersonType): string[] {
  return Object.keys(REGIMES).filter((c) => REGIMES[c].includes(type));
}

/** Whether `use` may be chosen with regime `regime`. */
export function isUseAllowed(use: string, regime: string): boolean {
  return USES[use]?.includes(regime) ?? false;
}

const field = (max: number) =>
  z.string({ error: "validation.required" }).transform((s) => s.trim())
    .pipe(
      z.string().min(1, "validation.required").max(max, "validation.too_long")
        .refine(isCleanName, NAME_CONTROL_KEY),
    );

/** The fiscal data form (messages are locale keys); the RFC is read in capitals. */
export const fiscalSchema = z.object({
  rfc: field(13).transform((s) => s.toUpperCase().replace(/\s+/g, ""))
    .pipe(
      z.string().regex(RFC_PATTERN, "fiscal.errors.rfc_pattern")
        .refine((s) => !isGenericRfc(s), "fiscal.errors.rfc_generic"),
    ),
  legal_name: field(254),
  tax_system: z.string({ error: "validation.required" }).trim()
    .refine((s) => s in REGIMES, "fiscal.errors.regime"),
  zip: z.string({ error: "validation.required" }).trim()
    .regex(/^\d{5}$/, "fiscal.errors.zip"),
  use: z.string().trim().optional().transform((s) => s || DEFAULT_USE)
    .pipe(z.string().refine((s) => s in USES, "fiscal.errors.use")),
}).superRefine((v, ctx) => {
  if (!(v.tax_system in REGIMES) || !RFC_PATTERN.test(v.rfc)) return;
  if (!REGIMES[v.tax_system].includes(personTypeOf(v.rfc))) {
    ctx.addIssue({ code: "custom", path: ["tax_system"], message: "fiscal.errors.regime_person" });
  } else if (v.use in USES && !isUseAllowed(v.use, v.tax_system)) {
    ctx.addIssue({ code: "custom", path: ["use"], message: "fiscal.errors.use_regime" });
  }
});

/** Validated fiscal data. */
export type FiscalInput = z.output<typeof fiscalSchema>;
