/** A message's plain-text and HTML parts from its worded pieces (pure; texts already escaped here). */

/** What a mail says, already worded in the reader's language. */
export interface MailContent {
  subject: string;
  greeting: string;
  paragraphs: string[];
  /** Label and absolute URL of the one thing to do. */
  action?: { label: string; url: string };
  /** Lines under the message: the portal, its contact, why this was sent. */
  footer: string[];
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The plain-text part. */
export function mailText(c: MailContent): string {
  const parts = [c.greeting, ...c.paragraphs];
  if (c.action) parts.push(`${c.action.label}: ${c.action.url}`);
  return `${parts.join("\n\n")}\n\n-- \n${c.footer.join("\n")}\n`;
}

/** The HTML part: one narrow column that reads on a phone, inline styles only. */
export function mailHtml(c: MailContent, lang: string): string {
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const action = c.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(c.action.url)}" style="background:#1d4ed8;` +
      `color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">` +
      `${escapeHtml(c.action.label)}</a></p>`
    : "";
  const footer = c.footer.map((l) => escapeHtml(l)).join("<br>");
  return `<!doctype html><html lang="${escapeHtml(lang)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width"><title>${escapeHtml(c.subject)}</title>` +
    `</head><body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,sans-serif;` +
    `color:#1f2937;font-size:16px;line-height:1.5"><div style="max-width:560px;margin:0 auto;` +
    `background:#fff;border-radius:8px;padding:24px">${p(c.greeting)}` +
    `${c.paragraphs.map(p).join("")}${action}<hr style="border:0;border-top:1px solid #e5e7eb">` +
    `<p style="margin:16px 0 0;font-size:13px;color:#6b7280">${footer}</p></div></body></html>`;
}
