/**
 * The API keys page (`/admin/api-keys`): the new key shown once, the create form (name, scope,
 * days until it expires) and the keys with their scope, expiry, last use and Revoke.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import { API_SCOPES, type ApiKey } from "../../core/api_keys.ts";
import { Card, PageHeader, ResponsiveList, StatusBadge } from "../kit/mod.ts";
import { errAttrs, Field, TextField } from "../Field.tsx";

/** Props of {@link ApiKeysPage}. */
export interface ApiKeysPageProps {
  t: Translate;
  keys: readonly ApiKey[];
  /** A key just made: shown this once. */
  created?: { name: string; token: string };
  fieldErrors?: Record<string, string>;
  error?: string;
  /** A time in the business time zone. */
  when: (at: number) => string;
  now: number;
}

/** The page. */
export function ApiKeysPage(p: ApiKeysPageProps) {
  const { t } = p;
  const fe = p.fieldErrors ?? {};
  const state = (k: ApiKey) =>
    k.revoked_at !== null ? "revoked" : p.now >= k.expires_at ? "expired" : "active";
  return (
    <>
      <PageHeader title={t("api_keys.title")} subtitle={t("api_keys.subtitle")} />
      {p.created && (
        <Card title={t("api_keys.created.title")} data-testid="new-key">
          <div className="alert alert-warning" role="status">{t("api_keys.created.once")}</div>
          <p>{p.created.name}</p>
          <p className="mono" data-testid="api-key-token" style={{ overflowWrap: "anywhere" }}>
            {p.created.token}
          </p>
        </Card>
      )}
      {p.error && <div className="alert alert-error" role="alert">{p.error}</div>}
      <Card title={t("api_keys.create.title")}>
        <form method="post" action="/admin/api-keys" className="form" noValidate>
          <TextField id="name" label={t("api_keys.fields.name")} required error={fe.name} />
          <Field id="scope" label={t("api_keys.fields.scope")}>
            <select id="scope" name="scope" defaultValue="read_only">
              {API_SCOPES.map((s) => <option key={s} value={s}>{t(`api_keys.scopes.${s}`)}
              </option>)}
            </select>
          </Field>
          <Field
            id="expires_in_days"
            label={t("api_keys.fields.expires_in_days")}
            error={fe.expires_in_days}
          >
            <input
              id="expires_in_days"
              name="expires_in_days"
              type="number"
              min={1}
              max={730}
              defaultValue={90}
              {...errAttrs("expires_in_days", fe.expires_in_days)}
            />
          </Field>
          <button type="submit" className="btn">{t("api_keys.create.submit")}</button>
        </form>
      </Card>
      <ResponsiveList
        label={t("api_keys.title")}
        testId="api-keys"
        rows={p.keys}
        rowKey={(k) => k.id}
        rowAttrs={(k) => ({ "data-key-id": k.id })}
        columns={[
          { label: t("api_keys.fields.name"), primary: true, cell: (k) => k.name },
          {
            label: t("api_keys.columns.state"),
            aside: true,
            cell: (k) => (
              <StatusBadge tone={state(k) === "active" ? "green" : "grey"}>
                {t(`api_keys.states.${state(k)}`)}
              </StatusBadge>
            ),
          },
          { label: t("api_keys.fields.scope"), cell: (k) => t(`api_keys.scopes.${k.scope}`) },
          { label: t("api_keys.columns.created_by"), cell: (k) => k.created_by.email },
          { label: t("api_keys.columns.expires"), cell: (k) => p.when(k.expires_at) },
          {
            label: t("api_keys.columns.last_used"),
            cell: (k) => k.last_used_at === null ? t("api_keys.never") : p.when(k.last_used_at),
          },
          {
            label: t("api_keys.columns.actions"),
            actions: true,
            cell: (k) =>
              k.revoked_at === null && (
                <form method="post" action={`/admin/api-keys/${k.id}/revoke`}>
                  <button type="submit" className="btn btn-danger btn-sm">
                    {t("api_keys.revoke")}
                  </button>
                </form>
              ),
          },
        ]}
        empty={<p className="empty">{t("api_keys.empty")}</p>}
      />
    </>
  );
}
