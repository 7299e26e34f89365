/**
 * A local Facturapi-speaking sandbox (test mode, issue 31): the part of Facturapi's v2 API the
 * portal uses — `POST /v2/invoices` (checked as Facturapi checks it: Bearer key, receiver's RFC
 * pattern, regime for the person type, use for the regime, the generic RFC only for a global
 * invoice, items, payment form and method, an exchange rate for a currency other than MXN;
 * one invoice per `idempotency_key`), `GET /v2/invoices/{id}`, `…/pdf`, `…/xml` and
 * `DELETE /v2/invoices/{id}?motive=…&substitution=…` and the key's organization
 * `GET /v2/organizations/me` (the issuer: the SAT's test RFC unless given), with Facturapi's error body
 * `{ message, path, status }`. Every document it makes says "sin validez fiscal". Its invoices
 * live in memory and, given a `stateFile`, in that file (written whole, then renamed, before
 * each answer), so a restart forgets nothing.
 *
 * For tests: {@link FacturapiSandbox.refuseTaxId} makes it refuse a receiver as the SAT's list
 * would, {@link FacturapiSandbox.delay} answers late (a timeout).
 */
import { isUseAllowed, REGIMES, RFC_PATTERN } from "../../../core/fiscal.ts";
import { type CfdiItem, cfdiTotals, isCancelMotive } from "../../../core/cfdi.ts";
import { sandboxPdf, sandboxXml } from "./documents.ts";
import { readJsonState, writeJsonState } from "./state.ts";

/** A running sandbox. */
export interface FacturapiSandbox {
  /** Base URL, as `FACTURAPI_URL` (ends in `/v2`). */
  url: string;
  key: string;
  invoices: Map<string, Record<string, unknown>>;
  /** Requests received, oldest first. */
  requests: { method: string; path: string; authorization: string | null; body: unknown }[];
  refuseTaxId(taxId: string | null): void;
  delay(ms: number): void;
  stop(): Promise<void>;
}

/** The sandbox organization's legal data. */
export interface SandboxIssuer {
  legal_name: string;
  tax_id: string;
  tax_system: string;
  zip: string;
}

/**
 * The issuer when none is given: the SAT's test taxpayer (RFC EKU9003173C9, "ESCUELA KEMPER
 * URGATE", regime 601, the one the SAT's test certificates are issued to).
 */
const TEST_ISSUER: SandboxIssuer = {
  legal_name: "ESCUELA KEMPER URGATE",
  tax_id: "EKU9003173C9",
  tax_system: "601",
  zip: "42501",
};

const FORMS = new Set(["01", "02", "03", "04", "05", "06", "08", "12", "28", "29", "99"]);

function error(status: number, message: string, path?: string): Response {
  return Response.json({ message, ...(path ? { path } : {}), status }, { status });
}

/** Facturapi's checks of an invoice body; an error answer or null. */
function check(b: Record<string, unknown>, refused: string | null): Response | null {
  const c = b.customer as Record<string, unknown> | undefined;
  if (!c || typeof c !== "object") return error(400, "customer is required", "customer");
  const taxId = String(c.tax_id ?? "");
  if (typeof c.legal_name !== "string" || !c.legal_name.trim()) {
    return error(400, '"customer.legal_name" is required', "customer.legal_name");
  }
  if (!RFC_PATTERN.test(taxId)) {
    return error(400, '"customer.tax_id" no tiene un formato válido de RFC', "customer.tax_id");
  }
  const system = String(c.tax_system ?? "");
  if (!(system in REGIMES)) {
    return error(400, '"customer.tax_system" no es un régimen válido', "customer.tax_system");
  }
  if (!REGIMES[system].includes(taxId.length === 12 ? "moral" : "fisica")) {
    return error(
      400,
      "El régimen fiscal del receptor no corresponde al tipo de persona de su RFC",
      "customer.tax_system",
    );
  }
  const zip = (c.address as { zip?: unknown } | undefined)?.zip;
  if (typeof zip !== "string" || !/^\d{5}$/.test(zip)) {
    return error(400, '"customer.address.zip" es requerido', "customer.address.zip");
  }
  const generic = taxId === "XAXX010101000";
  if (generic !== (b.global !== undefined)) {
    return error(
      400,
      generic
        ? "Para el RFC genérico XAXX010101000 se requiere el campo global"
        : "El campo global solo aplica al RFC XAXX010101000",
      "global",
    );
  }
  if (generic && (system !== "616" || b.use !== "S01" || c.legal_name !== "PUBLICO EN GENERAL")) {
    return error(400, "La factura global requiere régimen 616, uso S01 y PUBLICO EN GENERAL");
  }
  if (refused && taxId === refused) {
    return error(
      400,
      "El RFC del receptor no se encuentra en la lista de RFC inscritos no cancelados del SAT",
      "customer.tax_id",
    );
  }
  if (typeof b.use !== "string" || !isUseAllowed(b.use, system)) {
    return error(400, "El uso de CFDI no corresponde al régimen fiscal del receptor", "use");
  }
  if (!FORMS.has(String(b.payment_form))) {
    return error(400, '"payment_form" no es una forma de pago válida', "payment_form");
  }
  if (b.payment_method !== undefined && b.payment_method !== "PUE" && b.payment_method !== "PPD") {
    return error(400, '"payment_method" debe ser PUE o PPD', "payment_method");
  }
  const currency = b.currency ?? "MXN";
  if (currency !== "MXN" && !(typeof b.exchange === "number" && b.exchange > 0)) {
    return error(400, '"exchange" es requerido cuando la moneda no es MXN', "exchange");
  }
  const items = b.items;
  if (!Array.isArray(items) || items.length === 0) {
    return error(400, '"items" debe contener al menos un concepto', "items");
  }
  for (const [i, it] of items.entries()) {
    const p = it?.product;
    if (
      !p || typeof p.description !== "string" || !/^\d{8}$/.test(String(p.product_key)) ||
      typeof p.price !== "number" || !(p.price >= 0) || !(it.quantity > 0)
    ) return error(400, `"items[${i}].product" no es válido`, `items[${i}].product`);
  }
  return null;
}

/** Starts the sandbox on 127.0.0.1 with its secret key `key`. */
export async function startFacturapiSandbox(
  o: { key: string; port?: number; stateFile?: string; issuer?: Partial<SandboxIssuer> },
): Promise<FacturapiSandbox> {
  const issuer = { ...TEST_ISSUER, ...o.issuer };
  const organization = {
    id: "sandbox_organization",
    is_production_ready: false,
    legal: {
      name: issuer.legal_name,
      legal_name: issuer.legal_name,
      tax_id: issuer.tax_id,
      tax_system: issuer.tax_system,
      address: { zip: issuer.zip, country: "MEX" },
    },
  };
  const invoices = new Map<string, Record<string, unknown>>();
  const byIdempotency = new Map<string, string>();
  const kept = o.stateFile ? await readJsonState(o.stateFile) : null;
  for (const inv of kept ?? []) {
    invoices.set(String(inv.id), inv);
    if (typeof inv.idempotency_key === "string") {
      byIdempotency.set(inv.idempotency_key, inv.id as string);
    }
  }
  const save = () =>
    o.stateFile ? writeJsonState(o.stateFile, [...invoices.values()]) : Promise.resolve();
  const requests: FacturapiSandbox["requests"] = [];
  let refused: string | null = null;
  let delayMs = 0;
  let folio = invoices.size;
  const ac = new AbortController();

  async function create(b: Record<string, unknown>): Promise<Response> {
    const key = typeof b.idempotency_key === "string" ? b.idempotency_key : null;
    const again = key ? byIdempotency.get(key) : undefined;
    if (again) return Response.json(invoices.get(again));
    const bad = check(b, refused);
    if (bad) return bad;
    const totals = cfdiTotals(b.items as CfdiItem[]);
    const id = crypto.randomUUID().replaceAll("-", "").slice(0, 24);
    const inv: Record<string, unknown> = {
      id,
      uuid: crypto.randomUUID().toUpperCase(),
      livemode: false,
      status: "valid",
      cancellation_status: "none",
      type: "I",
      created_at: new Date().toISOString(),
      series: "F",
      folio_number: ++folio,
      customer: b.customer,
      items: b.items,
      payment_form: b.payment_form,
      payment_method: b.payment_method ?? "PUE",
      use: b.use,
      currency: b.currency ?? "MXN",
      exchange: b.exchange ?? 1,
      subtotal: totals.subtotal / 100,
      total: totals.total / 100,
      external_id: b.external_id ?? null,
      idempotency_key: key,
      global: b.global ?? null,
      verification_url: "https://verificacfdi.facturaelectronica.sat.gob.mx/",
      note: "sin validez fiscal",
    };
    invoices.set(id, inv);
    if (key) byIdempotency.set(key, id);
    await save();
    return Response.json(inv);
  }

  async function cancel(inv: Record<string, unknown>, q: URLSearchParams): Promise<Response> {
    const motive = q.get("motive");
    if (!isCancelMotive(motive)) return error(400, '"motive" debe ser 01, 02, 03 o 04', "motive");
    const sub = q.get("substitution");
    if (motive === "01") {
      const s = sub ? invoices.get(sub) : undefined;
      if (!s || s.status !== "valid" || s.id === inv.id) {
        return error(
          400,
          'El motivo 01 requiere "substitution": una factura válida',
          "substitution",
        );
      }
    }
    if (inv.status === "canceled") return error(400, "La factura ya está cancelada");
    inv.status = "canceled";
    inv.cancellation_status = "accepted";
    inv.cancellation = { motive, substitution: motive === "01" ? sub : null };
    await save();
    return Response.json(inv);
  }

  const route = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    let body: unknown = null;
    if (req.method === "POST") body = await req.json().catch(() => null);
    const authorization = req.headers.get("authorization");
    requests.push({ method: req.method, path: url.pathname + url.search, authorization, body });
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (authorization !== `Bearer ${o.key}`) {
      return error(401, "Authentication failed: invalid API key");
    }
    const parts = url.pathname.split("/").filter(Boolean);
    if (req.method === "GET" && parts.join("/") === "v2/organizations/me") {
      return Response.json(organization);
    }
    if (parts[0] !== "v2" || parts[1] !== "invoices") return error(404, "Not found");
    if (req.method === "POST" && parts.length === 2) {
      if (!body || typeof body !== "object") return error(400, "Invalid JSON body");
      return await create(body as Record<string, unknown>);
    }
    const inv = parts[2] ? invoices.get(parts[2]) : undefined;
    if (!inv) return error(404, "Invoice not found");
    if (req.method === "GET" && parts.length === 3) return Response.json(inv);
    if (req.method === "GET" && parts[3] === "pdf") {
      return new Response((await sandboxPdf(inv)) as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": "application/pdf" },
      });
    }
    if (req.method === "GET" && parts[3] === "xml") {
      return new Response(sandboxXml(inv), { headers: { "content-type": "application/xml" } });
    }
    if (req.method === "DELETE" && parts.length === 3) return await cancel(inv, url.searchParams);
    return error(405, "Method not allowed");
  };

  return await new Promise<FacturapiSandbox>((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: o.port ?? 0,
      signal: ac.signal,
      onListen: ({ port }) =>
        resolve({
          url: `http://127.0.0.1:${port}/v2`,
          key: o.key,
          invoices,
          requests,
          refuseTaxId: (t) => {
            refused = t;
          },
          delay: (ms) => {
            delayMs = ms;
          },
          stop: async () => {
            ac.abort();
            await server.finished;
          },
        }),
    }, route);
  });
}
