/** Messages that leave the portal (issue 28): e-mail and WhatsApp through the outbox. */
export { loadMessageSettings, type MessageSettings, MessageSettingsError } from "./settings.ts";
export { createMailSender, type MailSender, outboxFiles } from "./mail.ts";
export { createWhatsAppSender } from "./whatsapp.ts";
export { deliverDue, expandEvents, type Senders, startMessageWorker } from "./worker.ts";
export { messagesPage, sendAgain } from "./admin.ts";
export { messagePrefsOf, saveMessagePrefs } from "./prefs.ts";
export { queueReminders } from "./reminders.ts";
export { queueFailedDigest } from "./digest.ts";
