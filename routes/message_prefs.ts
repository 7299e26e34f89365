/**
 * The messages card of Settings (issue 28): `POST <settings path>/messages` with a `kind` field
 * per message kind turned on and `whatsapp=on` to opt in; back to Settings. The card's data for
 * the Settings page comes from {@link messagePrefsProps}.
 */
import { Hono } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { readForm } from "./_http.ts";
import { requireUser } from "./_session.ts";
import type { User } from "../core/types.ts";
import { messagePrefsOf, saveMessagePrefs } from "../services/messages/mod.ts";
import type { MessagePrefsFormProps } from "../components/messages/MessagePrefsForm.tsx";

/** What the Settings page needs to show the card of `u`. */
export async function messagePrefsProps(
  deps: Deps,
  u: User,
  path: string,
  saved: boolean,
): Promise<Omit<MessagePrefsFormProps, "t">> {
  return {
    action: `${path}/messages`,
    prefs: await messagePrefsOf(deps, u.id, u.role),
    email: u.email,
    phone: u.phone,
    whatsapp: deps.mail?.whatsapp ?? false,
    saved,
  };
}

/** The card's POST (`route` as registered, `path` as browsers see it). */
export function messagePrefsRoutes(deps: Deps, path: string, route: string): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.post(`${route}/messages`, requireUser(), async (c) => {
    const form = await readForm(c);
    const raw = form.kind;
    const kinds = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw])
      .filter((k): k is string => typeof k === "string");
    await saveMessagePrefs(
      deps,
      c.var.user.id,
      c.var.user.role,
      new Set(kinds),
      form.whatsapp === "on",
    );
    return c.redirect(`${path}?messages_saved=1#messages`, 303);
  });
  return app;
}
