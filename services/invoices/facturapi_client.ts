/**
 * Facturapi's REST API (v2), the calls the portal makes: create an invoice, read it, download
 * its PDF and XML, cancel it, and read the key's own organization (the issuer,
 * `GET /organizations/me`, as the official client's `organizations.me()`). Bearer authentication with the organization's secret key
 * (`sk_test_…` or `sk_live_…`); an error answer is `{ message, path?, status }`.
 *
 * Written over `fetch` rather than the official `facturapi` npm client on purpose: that client
 * throws a bare `Error(message)` that loses the HTTP status (a refusal to keep as failed and a
 * server outage to try again look the same), takes no timeout or abort signal, and names no
 * option for another base URL (the local sandbox, `FACTURAPI_URL`). The requests below are the
 * ones it sends (same paths, headers and JSON).
 */

/** A Facturapi invoice as answered (the fields the portal reads). */
export interface FacturapiInvoice {
  id: string;
  uuid: string;
  status: "valid" | "canceled" | "pending" | "draft";
  cancellation_status: "none" | "pending" | "accepted" | "rejected" | "expired";
  total: number;
  currency: string;
  external_id: string | null;
  livemode: boolean;
  created_at: string;
  folio_number?: number;
  series?: string;
  verification_url?: string;
}

/** The organization of the key (the issuer), the fields the portal reads. */
export interface FacturapiOrganization {
  id: string;
  legal: {
    name?: string;
    legal_name: string;
    tax_id: string;
    tax_system: string;
    address: { zip: string };
  };
}

/** What went wrong with a call. */
export class FacturapiError extends Error {
  constructor(
    /** Facturapi's message (or the network's). */
    message: string,
    /** The HTTP status, or 0 when no answer came (timeout, network). */
    readonly status: number,
    /** The field Facturapi named, when it did. */
    readonly path: string | null = null,
  ) {
    super(message);
  }
  /** A refusal of the request itself (4xx but 429): trying again sends the same thing. */
  get refused(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 429;
  }
}

/** Where and how to call. */
export interface FacturapiSettings {
  key: string;
  url: string;
  timeoutMs?: number;
}

/** A Facturapi client. */
export interface FacturapiClient {
  /** Whether invoices are test invoices ("sin validez fiscal"). */
  readonly test: boolean;
  createInvoice(body: unknown): Promise<FacturapiInvoice>;
  getInvoice(id: string): Promise<FacturapiInvoice>;
  download(id: string, format: "pdf" | "xml"): Promise<Uint8Array>;
  cancelInvoice(
    id: string,
    motive: string,
    substitution?: string | null,
  ): Promise<FacturapiInvoice>;
  organization(): Promise<FacturapiOrganization>;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/** A client for `s`. */
export function facturapiClient(s: FacturapiSettings): FacturapiClient {
  const base = s.url.replace(/\/+$/, "");
  async function call(method: string, path: string, body?: unknown): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: {
          authorization: `Bearer ${s.key}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(s.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (e) {
      const what = e instanceof DOMException && e.name === "TimeoutError"
        ? "Facturapi did not answer in time"
        : `Facturapi could not be reached: ${String(e)}`;
      throw new FacturapiError(what, 0);
    }
    if (res.ok) return res;
    const text = await res.text().catch(() => "");
    let message = text || res.statusText;
    let path_: string | null = null;
    try {
      const v = JSON.parse(text);
      if (typeof v?.message === "string" && v.message) message = v.message;
      if (typeof v?.path === "string") path_ = v.path;
    } catch {
      // not JSON: the text is the message
    }
    throw new FacturapiError(message, res.status, path_);
  }
  const json = async (res: Response) => await res.json() as FacturapiInvoice;
  return {
    test: s.key.startsWith("sk_test_"),
    createInvoice: async (body) => json(await call("POST", "/invoices", body)),
    getInvoice: async (id) => json(await call("GET", `/invoices/${encodeURIComponent(id)}`)),
    download: async (id, format) =>
      new Uint8Array(
        await (await call("GET", `/invoices/${encodeURIComponent(id)}/${format}`)).arrayBuffer(),
      ),
    cancelInvoice: async (id, motive, substitution) => {
      const q = new URLSearchParams({ motive });
      if (substitution) q.set("substitution", substitution);
      return json(await call("DELETE", `/invoices/${encodeURIComponent(id)}?${q}`));
    },
    organization: async () =>
      await (await call("GET", "/organizations/me")).json() as FacturapiOrganization,
  };
}
