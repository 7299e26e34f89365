/**
 * A real SMTP receiver for the message tests (npm `smtp-server` on 127.0.0.1, no TLS): it keeps
 * every message it accepted, parsed with `mailparser`, and refuses recipients as told (a 5xx
 * reply is permanent, a 4xx one temporary). `mailer` builds the portal's senders pointing at it.
 */
import { SMTPServer } from "smtp-server";
import { type ParsedMail, simpleParser } from "mailparser";
import { createMailSender } from "../services/messages/mail.ts";
import { loadMessageSettings } from "../services/messages/settings.ts";
import type { Senders } from "../services/messages/worker.ts";

/** A running receiver. */
export interface Receiver {
  url: string;
  mails: ParsedMail[];
  /** Recipient → the reply code to refuse it with (e.g. 550, 451). */
  refuse: Map<string, number>;
  /** The portal's senders delivering here. */
  senders(): Senders;
  stop(): Promise<void>;
}

/** Starts a receiver on a free port. */
export async function receiver(): Promise<Receiver> {
  const mails: ParsedMail[] = [];
  const refuse = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, cb) {
      const code = refuse.get(address.address);
      if (code) {
        return cb(Object.assign(new Error(`refused ${address.address}`), { responseCode: code }));
      }
      cb();
    },
    onData(stream, _session, cb) {
      simpleParser(stream).then((m) => {
        mails.push(m);
        cb();
      }, cb);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  const url = `smtp://127.0.0.1:${port}`;
  return {
    url,
    mails,
    refuse,
    senders: () => ({
      email: createMailSender(
        loadMessageSettings({ SMTP_URL: url, MAIL_FROM: "Portal <portal@test.mx>" }),
      ),
    }),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The mails sent to `address`. */
export const mailsTo = (r: Receiver, address: string) =>
  r.mails.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.text === address));
