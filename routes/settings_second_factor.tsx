/**
 * The second factor in Settings, under each role's settings page (`/admin/settings/second-factor`
 * and the like): set up with a QR code and a first code, the recovery codes shown once, turned
 * off with a code. Signed-in accounts only.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { Deps, UserEnv } from "./_deps.ts";
import { acting } from "./_audit.ts";
import { readForm } from "./_http.ts";
import { formChecked } from "./_validate.ts";
import { appPage } from "./_page.tsx";
import { requireUser } from "./_session.ts";
import { attempt, Refusal } from "./_refusal.tsx";
import { factorCodeSchema } from "../core/totp.ts";
import {
  confirmSetup,
  currentSetup,
  hasSecondFactor,
  recoveryLeft,
  startSetup,
  turnOff,
} from "../services/second_factor.ts";
import {
  SecondFactorPage,
  type SecondFactorView,
} from "../components/settings/SecondFactorPage.tsx";

/** Routes of the second factor's page at `path` (mounted there). */
export function secondFactorRoutes(deps: Deps, path: string, back: string): Hono<UserEnv> {
  const app = new Hono<UserEnv>();
  app.use(requireUser());
  const page = (c: Context<UserEnv>, view: SecondFactorView, error?: string, status = 200) =>
    appPage(
      c,
      deps,
      c.var.t("second_factor.title"),
      <SecondFactorPage
        t={c.var.t}
        action={path}
        back={back}
        view={view}
        error={error}
        required={c.var.user.role === "admin" && deps.config.admin2faRequired}
      />,
      status as 200 | 400,
    );
  const setupView = async (c: Context<UserEnv>, fresh: boolean): Promise<SecondFactorView> => {
    const s = fresh ? await startSetup(deps, c.var.user) : await currentSetup(deps, c.var.user);
    return { state: "setup", secret: s.secret, qrSvg: s.qrSvg };
  };

  app.get("/", async (c) => {
    const u = c.var.user;
    if (await hasSecondFactor(deps, u.id)) {
      return page(c, { state: "on", recoveryLeft: await recoveryLeft(deps, u.id) });
    }
    return page(c, await setupView(c, true));
  });

  /** The posted code handed to `act`, or why it was refused (malformed, wrong). */
  const withCode = async <T,>(c: Context<UserEnv>, act: (code: string) => Promise<T>) => {
    const parsed = formChecked(factorCodeSchema, await readForm(c));
    return parsed instanceof Refusal ? parsed : await attempt(act(parsed.code));
  };

  app.post("/confirm", async (c) => {
    const codes = await withCode(c, (code) => confirmSetup(acting(c, deps), c.var.user, code));
    if (codes instanceof Refusal) {
      const error = c.var.t("second_factor.errors.code_invalid");
      return page(c, await setupView(c, false), error, 400);
    }
    return page(c, { state: "codes", codes });
  });

  app.post("/disable", async (c) => {
    const done = await withCode(c, (code) => turnOff(acting(c, deps), c.var.user, code));
    if (done instanceof Refusal) {
      const left = await recoveryLeft(deps, c.var.user.id);
      const error = c.var.t("second_factor.errors.code_invalid");
      return page(c, { state: "on", recoveryLeft: left }, error, 400);
    }
    return c.redirect(back, 303);
  });
  return app;
}
