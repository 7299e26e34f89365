/**
 * E-mail through nodemailer: SMTP when configured (`smtp://` upgrades with STARTTLS when the
 * server offers it, `smtps://` is TLS from the start), else each message is written as an
 * RFC 822 `.eml` file (nodemailer's stream transport builds it) under the outbox folder, named
 * after its delivery, so a repeated attempt rewrites the same file.
 */
import nodemailer from "nodemailer";
import { Buffer } from "node:buffer";
import { type SendOutcome, smtpRefusal } from "../../core/messages.ts";
import type { MessageSettings } from "./settings.ts";

/** A mail ready to go. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per delivery: a message sent again carries the same one. */
  messageId: string;
  /** The delivery's id (names the `.eml` file). */
  deliveryId: string;
  attachments: { filename: string; content: Uint8Array; contentType: string }[];
}

/** Something that sends mails. */
export interface MailSender {
  /** Where mails go, for the start-up line and the admin page. */
  readonly where: string;
  /** The folder of `.eml` files, or null when mails go to an SMTP server. */
  readonly folder: string | null;
  send(mail: OutgoingMail): Promise<SendOutcome>;
  close(): void;
}

/** How long one SMTP exchange may take; well inside the worker's lease. */
const SMTP_TIMEOUT_MS = 30_000;

/** The sender the settings ask for. */
export function createMailSender(settings: MessageSettings): MailSender {
  const options = (m: OutgoingMail) => ({
    from: settings.mailFrom,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    messageId: m.messageId,
    attachments: m.attachments.map((a) => ({
      filename: a.filename,
      content: Buffer.from(a.content),
      contentType: a.contentType,
    })),
  });
  if (settings.smtpUrl) {
    const url = new URL(settings.smtpUrl);
    const transport = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port) || (url.protocol === "smtps:" ? 465 : 587),
      secure: url.protocol === "smtps:",
      auth: url.username
        ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
        : undefined,
      connectionTimeout: SMTP_TIMEOUT_MS,
      greetingTimeout: SMTP_TIMEOUT_MS,
      socketTimeout: SMTP_TIMEOUT_MS,
    });
    return {
      where: `SMTP ${url.protocol}//${url.host}`,
      folder: null,
      async send(m) {
        try {
          await transport.sendMail(options(m));
          return { ok: true };
        } catch (e) {
          const err = e as { responseCode?: number; response?: string; message?: string };
          const kind = smtpRefusal(err.responseCode);
          return {
            ok: false,
            permanent: kind === "permanent",
            reason: err.response ?? err.message ?? String(e),
          };
        }
      },
      close: () => transport.close(),
    };
  }
  const folder = settings.outboxDir;
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  return {
    where: `files in ${folder}/`,
    folder,
    async send(m) {
      try {
        const info = await transport.sendMail(options(m));
        await Deno.mkdir(folder, { recursive: true });
        const name = `${m.deliveryId.replace(/[^\w.-]+/g, "_")}.eml`;
        const tmp = `${folder}/.${name}.tmp`;
        await Deno.writeFile(tmp, info.message as Uint8Array);
        await Deno.rename(tmp, `${folder}/${name}`);
        return { ok: true };
      } catch (e) {
        return { ok: false, permanent: false, reason: String(e) };
      }
    },
    close: () => {},
  };
}

/** The `.eml` files of the outbox folder, newest first (none when it does not exist). */
export async function outboxFiles(
  folder: string,
): Promise<{ name: string; size: number; modified: number }[]> {
  const out: { name: string; size: number; modified: number }[] = [];
  try {
    for await (const e of Deno.readDir(folder)) {
      if (!e.isFile || !e.name.endsWith(".eml")) continue;
      const st = await Deno.stat(`${folder}/${e.name}`);
      out.push({ name: e.name, size: st.size, modified: st.mtime?.getTime() ?? 0 });
    }
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  return out.sort((a, b) => b.modified - a.modified);
}
