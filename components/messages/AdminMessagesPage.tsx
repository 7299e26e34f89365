/**
 * The admin's messages page `/admin/messages` (issue 28): the latest messages (sent, pending,
 * failed with the reason and "Send again"), where mails go, and the `.eml` files when they are
 * written to the outbox folder.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { MessagesPage } from "../../services/messages/admin.ts";
import type { DeliveryRow } from "../../services/messages/admin.ts";
import { Card, FormError, PageHeader, ResponsiveList } from "../kit/mod.ts";
import { localDateTime } from "../../core/local_time.ts";

/** Props of {@link AdminMessagesPage}. */
interface Props {
  t: Translate;
  data: MessagesPage;
  where: string;
  offsetMinutes: number;
  notice?: string;
  error?: string;
}

const BADGE: Record<DeliveryRow["state"], string> = {
  pending: "badge badge-blue",
  sending: "badge badge-blue",
  sent: "badge badge-green",
  failed: "badge badge-red",
  skipped: "badge badge-grey",
};

/** The page. */
export function AdminMessagesPage({ t, data, where, offsetMinutes, notice, error }: Props) {
  const A = (k: string, p?: Record<string, string>) => t(`messages.admin.${k}`, p);
  const time = (ms: number) => localDateTime(ms, offsetMinutes);
  return (
    <>
      <PageHeader title={A("title")} subtitle={A("subtitle")} />
      <p className="muted" data-testid="mail-where">{A("where", { where })}</p>
      {notice && <p className="alert alert-success notice" role="status">{notice}</p>}
      <FormError>{error}</FormError>
      <Card title={A("title")}>
        <ResponsiveList<DeliveryRow>
          label={A("title")}
          framed={false}
          testId="messages"
          rows={data.rows}
          rowKey={(d) => d.id}
          rowAttrs={(d) => ({ "data-state": d.state, "data-kind": d.kind })}
          empty={<p className="muted">{A("empty")}</p>}
          columns={[
            { label: A("col_kind"), primary: true, cell: (d) => t(`messages.kinds.${d.kind}`) },
            {
              label: A("col_state"),
              aside: true,
              cell: (d) => <span className={BADGE[d.state]}>{A(`state.${d.state}`)}</span>,
            },
            { label: A("col_to"), cell: (d) => d.to },
            { label: A("col_channel"), cell: (d) => d.channel },
            { label: A("col_when"), cell: (d) => time(d.created_at) },
            { label: A("col_attempts"), numeric: true, cell: (d) => String(d.attempts) },
            { label: A("col_reason"), cell: (d) => d.error ?? "—" },
            {
              label: A("send_again"),
              actions: true,
              cell: (d) =>
                (d.state === "failed" || d.state === "skipped") && (
                  <form method="post" action="/admin/messages/resend" className="inline-form">
                    <input type="hidden" name="id" value={d.id} />
                    <button type="submit" className="btn btn-sm btn-secondary">
                      {A("send_again")}
                    </button>
                  </form>
                ),
            },
          ]}
        />
      </Card>
      {data.files && (
        <Card title={A("files_title")}>
          {data.files.length === 0
            ? <p className="muted">{A("files_empty")}</p>
            : (
              <ul data-testid="mail-files">
                {data.files.map((f) => (
                  <li key={f.name}>
                    <a href={`/admin/messages/files/${encodeURIComponent(f.name)}`}>{f.name}</a>
                    {" "}
                    <span className="muted">
                      {time(f.modified)} · {Math.ceil(f.size / 1024)} KB
                    </span>
                  </li>
                ))}
              </ul>
            )}
        </Card>
      )}
    </>
  );
}
