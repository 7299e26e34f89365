/**
 * The notice on a form page whose post arrived after the session ended: the kept values are
 * filled in again (the `FormRestore` island) for the person to check and save.
 */
import type { Translate } from "../services/platform/i18n.ts";
import type { RestoredForm } from "../services/kept_forms.ts";
import { Island } from "./render.tsx";
import FormRestore from "../islands/FormRestore.tsx";

/** The notice and the island refilling the form. */
export function KeptFormNotice({ t, form }: { t: Translate; form: RestoredForm }) {
  return (
    <div
      className="alert alert-info"
      role="status"
      data-testid="kept-form"
      style={{ marginBottom: "1rem" }}
    >
      {t("session.restored")}
      <Island of={FormRestore} props={form} />
    </div>
  );
}
