/** The row actions of the users management lists: activate/deactivate and delete. */
import type { Translate } from "../../services/platform/i18n.ts";
import { Island } from "../render.tsx";
import ConfirmSubmit from "../../islands/ConfirmSubmit.tsx";

/** Hidden fields that bring the admin back to the same tab and search. */
type BackFields = Record<string, string>;

/** Props of {@link DeleteButton}. */
interface DeleteButtonProps {
  t: Translate;
  /** Where the delete form posts. */
  action: string;
  fields: BackFields;
  /** Dialog title and message. */
  title: string;
  message: string;
}

/** A Delete button that asks for confirmation (a dialog with JS, a page without). */
export function DeleteButton({ t, action, fields, title, message }: DeleteButtonProps) {
  return (
    <Island
      of={ConfirmSubmit}
      props={{
        action,
        fields,
        label: t("users.actions.delete"),
        className: "btn btn-sm btn-danger",
        title,
        message,
        confirmLabel: t("users.confirm.delete"),
        cancelLabel: t("users.confirm.cancel"),
      }}
    />
  );
}

/**
 * The Activate or Deactivate button of an account (a POST form); deactivating asks for
 * confirmation first, as deleting does (it signs the person out and keeps them out).
 */
export function ToggleButton(
  { t, id, name, active, fields }: {
    t: Translate;
    id: number;
    name: string;
    active: boolean;
    fields: BackFields;
  },
) {
  if (active) {
    return (
      <Island
        of={ConfirmSubmit}
        props={{
          action: `/admin/users/${id}/toggle`,
          fields,
          label: t("users.actions.deactivate"),
          className: "btn btn-sm btn-secondary",
          title: t("users.confirm.deactivate_title"),
          message: t("users.confirm.deactivate_text", { name }),
          confirmLabel: t("users.actions.deactivate"),
          cancelLabel: t("users.confirm.cancel"),
        }}
      />
    );
  }
  return (
    <form method="post" action={`/admin/users/${id}/toggle`}>
      {Object.entries(fields).map(([k, v]) => <input key={k} type="hidden" name={k} value={v} />)}
      <button type="submit" className="btn btn-sm btn-secondary">
        {t("users.actions.activate")}
      </button>
    </form>
  );
}

/** The hidden fields for a tab and an optional search. */
export function backFields(tab: string, q: string): BackFields {
  return q ? { tab, q } : { tab };
}
