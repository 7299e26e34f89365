/**
 * Openpay's REST API for SPEI (`bank_account`) charges, spoken with `fetch`: HTTP Basic with the
 * private key as user and an empty password, JSON bodies, a timeout on every call, and Openpay's
 * error body (`{category, error_code, description, http_code, request_id}`) parsed into an
 * {@link OpenpayError}. The same client talks to the real API and to the local sandbox.
 */
import type { OpenpaySettings } from "../platform/config.ts";

/** How long one call may take before it counts as Openpay being down. */
const OPENPAY_TIMEOUT_MS = 10_000;

/** What a bank-transfer charge asks for (merchant level, with the payer as `customer`). */
interface SpeiChargeRequest {
  method: "bank_account";
  /** Currency units with at most 2 decimals. */
  amount: number;
  description: string;
  order_id: string;
  /** ISO 8601. */
  due_date: string;
  customer: { name: string; last_name: string; email: string };
}

/** A charge as Openpay answers it (fields the portal reads; others are ignored). */
export interface OpenpayCharge {
  id: string;
  status: string;
  amount: number;
  order_id: string | null;
  method: string;
  due_date: string | null;
  creation_date: string | null;
  operation_date: string | null;
  payment_method: {
    type: string;
    bank: string;
    clabe: string;
    agreement: string | null;
    /** The 20-digit payment reference the payer quotes. */
    name: string;
  } | null;
}

/** Why a call failed: Openpay refused (its error body), answered oddly, or did not answer. */
export class OpenpayError extends Error {
  constructor(
    readonly kind: "refused" | "unavailable" | "timeout" | "bad_answer",
    readonly status: number | null,
    readonly body: {
      category?: string;
      error_code?: number;
      description?: string;
      http_code?: number;
      request_id?: string;
    } | null,
    message: string,
  ) {
    super(message);
    this.name = "OpenpayError";
  }
}

/** Whether the portal may talk to an Openpay API with these settings. */
export function openpayConfigured(s: OpenpaySettings): boolean {
  return s.merchantId !== null && s.privateKey !== null;
}

/** The Basic authorization header of the private key (`sk_…:` with an empty password). */
export function basicAuth(user: string, password = ""): string {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * The dashboard's SPEI receipt ("ficha de pago") of a charge on Openpay's own API (production
 * or its sandbox); null for any other API (the local sandbox has no dashboard, and its address
 * is the machine's own loopback): the portal serves that receipt itself.
 */
export function speiReceiptUrl(s: OpenpaySettings, chargeId: string): string | null {
  const dashboard = s.production
    ? "https://dashboard.openpay.mx"
    : s.apiUrl.startsWith("https://sandbox-api.openpay.mx")
    ? "https://sandbox-dashboard.openpay.mx"
    : null;
  return dashboard && `${dashboard}/spei-pdf/${s.merchantId}/${chargeId}`;
}

const str = (v: unknown): string | null => typeof v === "string" ? v : null;

/** Reads a charge from an answer; a {@link OpenpayError} `bad_answer` when it is not one. */
function parseCharge(v: unknown): OpenpayCharge {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== "object" || typeof o.id !== "string" || typeof o.status !== "string") {
    throw new OpenpayError("bad_answer", null, null, "the answer is not a charge");
  }
  const amount = typeof o.amount === "number" ? o.amount : Number(o.amount);
  const pm = o.payment_method as Record<string, unknown> | null | undefined;
  return {
    id: o.id,
    status: o.status,
    amount: Number.isFinite(amount) ? amount : NaN,
    order_id: str(o.order_id),
    method: str(o.method) ?? "",
    due_date: str(o.due_date),
    creation_date: str(o.creation_date),
    operation_date: str(o.operation_date),
    payment_method: pm && typeof pm === "object"
      ? {
        type: str(pm.type) ?? "",
        bank: str(pm.bank) ?? "",
        clabe: str(pm.clabe) ?? "",
        agreement: str(pm.agreement),
        name: str(pm.name) ?? "",
      }
      : null,
  };
}

/** Whether Openpay refused a charge because its `order_id` was used before (409, code 1006). */
export function isOrderTaken(e: unknown): boolean {
  return e instanceof OpenpayError && e.kind === "refused" &&
    (e.status === 409 || e.body?.error_code === 1006);
}

/** A client of one merchant's API. */
export interface OpenpayClient {
  createCharge(req: SpeiChargeRequest): Promise<OpenpayCharge>;
  getCharge(id: string): Promise<OpenpayCharge>;
  /**
   * The merchant's charges made with `orderId` (Openpay's list of charges filtered by
   * `order_id`, newest first): how a charge whose answer was lost is found again.
   */
  chargesOfOrder(orderId: string): Promise<OpenpayCharge[]>;
}

/** A client for these settings (which must be {@link openpayConfigured}). */
export function openpayClient(s: OpenpaySettings): OpenpayClient {
  const timeoutMs = s.timeoutMs ?? OPENPAY_TIMEOUT_MS;
  const base = `${s.apiUrl}/v1/${encodeURIComponent(s.merchantId ?? "")}`;
  const auth = basicAuth(s.privateKey ?? "");
  async function send(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: auth,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const timedOut = e instanceof DOMException && e.name === "TimeoutError";
      throw new OpenpayError(
        timedOut ? "timeout" : "unavailable",
        null,
        null,
        timedOut ? `no answer within ${timeoutMs} ms` : String(e),
      );
    }
    const text = await res.text().catch(() => "");
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    if (!res.ok) {
      const err = json && typeof json === "object" ? json as OpenpayError["body"] : null;
      throw new OpenpayError(
        res.status >= 500 ? "unavailable" : "refused",
        res.status,
        err,
        `Openpay answered ${res.status}${err?.description ? `: ${err.description}` : ""}`,
      );
    }
    return json;
  }
  return {
    createCharge: async (req) => parseCharge(await send("POST", "/charges", req)),
    getCharge: async (id) => parseCharge(await send("GET", `/charges/${encodeURIComponent(id)}`)),
    chargesOfOrder: async (orderId) => {
      const list = await send("GET", `/charges?order_id=${encodeURIComponent(orderId)}`);
      if (!Array.isArray(list)) {
        throw new OpenpayError("bad_answer", null, null, "the answer is not a list of charges");
      }
      return list.map(parseCharge).filter((c) => c.order_id === orderId);
    },
  };
}
