/**
 * A local Openpay-compatible sandbox (test mode): the subset of Openpay's API the portal uses —
 * create, get and list (`order_id`, `status`, `offset`, `limit` filters, newest first) `bank_account`
 * charges at merchant and customer level, answered as Openpay
 * documents it (`payment_method {type, bank, clabe, agreement, name}`, `due_date`, statuses
 * `in_progress`, `completed`, `cancelled`), its error body, and webhook deliveries with Basic auth
 * retried until answered 2xx. Two extensions simulate the payer: `POST
 * /v1/{merchant}/charges/{id}/simulate-transfer` (the transfer arrives: completed,
 * `charge.succeeded`) and `…/simulate-expiry` (cancelled, `charge.cancelled` and
 * `transaction.expired`). Charges live in memory and, given a `stateFile`, in that file too
(`state.ts`): written before each answer, read back at start, so a restart forgets nothing. For tests, {@link OpenpaySandbox.delayCreates}
 * makes it answer a charge it has made only after a delay (a lost answer).
 */
import { basicAuth } from "../openpay_client.ts";
import { randomClabe, randomReference } from "./clabe.ts";
import { readSandboxState, stateSaver } from "./state.ts";

/** Where the sandbox sends its webhooks. */
interface SandboxWebhook {
  url: string;
  user: string;
  password: string;
}

/** Options of {@link startOpenpaySandbox}. */
interface SandboxOptions {
  merchantId: string;
  privateKey: string;
  /** Port to listen on (0: any free port) on 127.0.0.1. */
  port?: number;
  webhook?: SandboxWebhook | null;
  /** First retry delay of a webhook delivery (doubling up to 5 s). */
  retryMs?: number;
  /** Log of deliveries (for the task's output). */
  onLog?: (line: string) => void;
  /** A file that keeps the charges across restarts (`state.ts`); none: memory only. */
  stateFile?: string;
}

/** A running sandbox. */
export interface OpenpaySandbox {
  /** Base URL, as `OPENPAY_API_URL`. */
  url: string;
  /** The charges made so far (by id). */
  charges: Map<string, Record<string, unknown>>;
  /** The paths and bodies of the requests received, oldest first. */
  requests: { method: string; path: string; authorization: string | null; body: unknown }[];
  setWebhook(w: SandboxWebhook | null): void;
  /** Marks a charge paid (`charge.succeeded`); false when unknown or not in progress. */
  simulateTransfer(id: string): boolean;
  /** Cancels a charge as expired; false when unknown or not in progress. */
  simulateExpiry(id: string): boolean;
  /**
   * Creates later charges at once but answers them only after `ms` (0: at once), as when
   * Openpay's answer is lost on the way.
   */
  delayCreates(ms: number): void;
  /** Resolves once every queued webhook has been delivered. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Openpay's time format: local central time with its offset (the sandbox uses -06:00). */
function mxTime(ms: number): string {
  return new Date(ms - 6 * 3_600_000).toISOString().slice(0, 19) + "-06:00";
}

function requestId(): string {
  return crypto.randomUUID();
}

function error(status: number, code: number, description: string): Response {
  return Response.json({
    category: status >= 500 ? "gateway" : "request",
    error_code: code,
    description,
    http_code: status,
    request_id: requestId(),
  }, { status });
}

function transactionId(): string {
  const abc = "abcdefghijklmnopqrstuvwxyz0123456789";
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return "tr" + Array.from(bytes, (b) => abc[b % abc.length]).join("");
}

/** Checks a charge request as Openpay does; an error answer or null. */
function checkCharge(b: Record<string, unknown>, orders: Set<string>): Response | null {
  if (b.method !== "bank_account") return error(400, 1001, "method must be bank_account");
  const amount = b.amount;
  if (
    typeof amount !== "number" || !(amount > 0) || Math.round(amount * 100) / 100 !== amount
  ) return error(400, 1001, "amount must be greater than 0 with up to 2 decimals");
  if (typeof b.description !== "string" || !b.description || b.description.length > 250) {
    return error(400, 1001, "description is required (up to 250 characters)");
  }
  if (b.order_id !== undefined && (typeof b.order_id !== "string" || b.order_id.length > 100)) {
    return error(400, 1001, "order_id must be up to 100 characters");
  }
  if (typeof b.order_id === "string" && orders.has(b.order_id)) {
    return error(409, 1006, "The orderId has already been processed");
  }
  if (b.due_date !== undefined && Number.isNaN(Date.parse(String(b.due_date)))) {
    return error(400, 1001, "due_date must be an ISO 8601 date");
  }
  return null;
}

/** Starts the sandbox on 127.0.0.1. */
export async function startOpenpaySandbox(o: SandboxOptions): Promise<OpenpaySandbox> {
  const charges = new Map<string, Record<string, unknown>>();
  const orders = new Set<string>();
  const kept = o.stateFile ? await readSandboxState(o.stateFile) : null;
  for (const c of kept?.charges ?? []) {
    charges.set(c.id as string, c);
    if (typeof c.order_id === "string") orders.add(c.order_id);
  }
  const saver = o.stateFile ? stateSaver(o.stateFile) : null;
  let url: string | null = null;
  /** Writes the state (before the answer that reports it). */
  const save = () =>
    saver?.({
      merchant_id: o.merchantId,
      private_key: o.privateKey,
      url,
      charges: [...charges.values()],
    }) ?? Promise.resolve();
  const requests: OpenpaySandbox["requests"] = [];
  let webhook = o.webhook ?? null;
  const pending = new Set<Promise<void>>();
  const ac = new AbortController();
  const log = o.onLog ?? (() => {});
  const expected = basicAuth(o.privateKey);
  let createDelayMs = 0;

  function deliver(type: string, tx: Record<string, unknown>) {
    const target = webhook;
    if (!target) return;
    const body = JSON.stringify({ type, event_date: mxTime(Date.now()), transaction: tx });
    const work = (async () => {
      let wait = o.retryMs ?? 250;
      for (let attempt = 1; attempt <= 60 && !ac.signal.aborted; attempt++) {
        try {
          const res = await fetch(target.url, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              authorization: basicAuth(target.user, target.password),
            },
            body,
            signal: AbortSignal.timeout(10_000),
          });
          await res.body?.cancel();
          log(`webhook ${type} ${tx.id}: ${res.status} (attempt ${attempt})`);
          if (res.ok) return;
        } catch (e) {
          log(`webhook ${type} ${tx.id}: ${String(e)} (attempt ${attempt})`);
        }
        await sleep(wait);
        wait = Math.min(wait * 2, 5000);
      }
    })();
    pending.add(work);
    work.finally(() => pending.delete(work));
  }

  async function create(b: Record<string, unknown>, customerId: string | null): Promise<Response> {
    const bad = checkCharge(b, orders);
    if (bad) return bad;
    const now = Date.now();
    const id = transactionId();
    const c = b.customer as Record<string, unknown> | undefined;
    const charge: Record<string, unknown> = {
      id,
      authorization: null,
      operation_type: "in",
      method: "bank_account",
      transaction_type: "charge",
      status: "in_progress",
      conciliated: false,
      creation_date: mxTime(now),
      operation_date: mxTime(now),
      description: b.description,
      error_message: null,
      order_id: b.order_id ?? null,
      customer_id: customerId,
      due_date: b.due_date ? mxTime(Date.parse(String(b.due_date))) : null,
      amount: b.amount,
      currency: "MXN",
      ...(c && !customerId ? { customer: { ...c, creation_date: mxTime(now) } } : {}),
      payment_method: {
        type: "bank_transfer",
        bank: "BBVA Bancomer",
        clabe: randomClabe(),
        agreement: "1411217",
        name: randomReference(),
      },
    };
    charges.set(id, charge);
    if (typeof b.order_id === "string") orders.add(b.order_id);
    await save();
    deliver("charge.created", charge);
    return Response.json(charge);
  }

  /** Settles a charge: null when unknown or not in progress, else its save (events follow it). */
  function settle(
    id: string,
    status: "completed" | "cancelled",
    events: string[],
  ): Promise<void> | null {
    const charge = charges.get(id);
    if (!charge || charge.status !== "in_progress") return null;
    charge.status = status;
    charge.operation_date = mxTime(Date.now());
    if (status === "cancelled") charge.conciliated = true;
    const saved = save();
    const work = saved.catch(() => {}).then(() => {
      for (const e of events) deliver(e, charge);
    });
    pending.add(work);
    work.finally(() => pending.delete(work));
    return saved;
  }

  /** The HTTP answer of a simulation: the charge once its state is kept. */
  async function simulated(saved: Promise<void> | null, charge: unknown): Promise<Response> {
    if (!saved) return error(409, 1001, "The charge is not in progress");
    await saved;
    return Response.json(charge);
  }

  /** Openpay's list of charges: filtered, newest first, `offset` and `limit` (default 10). */
  function list(q: URLSearchParams, customerId: string | null): Response {
    const num = (k: string, d: number) => {
      const v = q.get(k);
      return v === null || !/^\d{1,6}$/.test(v) ? d : Number(v);
    };
    const orderId = q.get("order_id");
    const status = q.get("status")?.toLowerCase() ?? null;
    const offset = num("offset", 0);
    const rows = [...charges.values()].filter((c) =>
      (orderId === null || c.order_id === orderId) && (status === null || c.status === status) &&
      (customerId === null || c.customer_id === customerId)
    ).reverse();
    return Response.json(rows.slice(offset, offset + Math.min(num("limit", 10), 100)));
  }

  const route = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const parts = url.pathname.split("/").filter(Boolean);
    let body: unknown = null;
    if (req.method === "POST") {
      try {
        body = await req.json();
      } catch {
        body = null;
      }
    }
    requests.push({
      method: req.method,
      path: url.pathname,
      authorization: req.headers.get("authorization"),
      body,
    });
    if (parts[0] !== "v1" || parts[1] !== o.merchantId) {
      return error(404, 1005, "The requested resource doesn't exist");
    }
    if (req.headers.get("authorization") !== expected) {
      return error(401, 1002, "The api key or merchant id are invalid");
    }
    const rest = parts.slice(2);
    const customerId = rest[0] === "customers" ? rest[1] ?? null : null;
    const path = customerId ? rest.slice(2) : rest;
    if (path[0] !== "charges") return error(404, 1005, "The requested resource doesn't exist");
    if (req.method === "POST" && path.length === 1) {
      if (!body || typeof body !== "object") return error(400, 1001, "The body is not JSON");
      const answer = await create(body as Record<string, unknown>, customerId);
      if (createDelayMs > 0) await sleep(createDelayMs);
      return answer;
    }
    if (req.method === "GET" && path.length === 1) return list(url.searchParams, customerId);
    const charge = path[1] ? charges.get(path[1]) : undefined;
    if (!charge || (customerId && charge.customer_id !== customerId)) {
      return error(404, 1005, "The requested resource doesn't exist");
    }
    if (req.method === "GET" && path.length === 2) return Response.json(charge);
    if (req.method === "POST" && path[2] === "simulate-transfer") {
      return simulated(settle(path[1], "completed", ["charge.succeeded"]), charge);
    }
    if (req.method === "POST" && path[2] === "simulate-expiry") {
      return simulated(
        settle(path[1], "cancelled", ["charge.cancelled", "transaction.expired"]),
        charge,
      );
    }
    return error(405, 1001, "Method not allowed");
  };

  const started = await new Promise<OpenpaySandbox>((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: o.port ?? 0,
      signal: ac.signal,
      onListen: ({ port }) =>
        resolve({
          url: `http://127.0.0.1:${port}`,
          charges,
          requests,
          setWebhook: (w) => {
            webhook = w;
          },
          simulateTransfer: (id) => settle(id, "completed", ["charge.succeeded"]) !== null,
          simulateExpiry: (id) =>
            settle(id, "cancelled", ["charge.cancelled", "transaction.expired"]) !== null,
          delayCreates: (ms) => {
            createDelayMs = ms;
          },
          idle: async () => {
            while (pending.size > 0) await Promise.all([...pending]);
          },
          stop: async () => {
            ac.abort();
            await server.finished;
            await Promise.allSettled([...pending]);
          },
        }),
    }, route);
  });
  url = started.url;
  await save();
  return started;
}
