/**
 * A list of alerts (issue 30): state, rule, meter, station, when it opened and the reading that
 * tripped it; for the admin, acknowledge (with a note) and resolve. Shown by `/admin/alerts`
 * and, open ones only, by the station and sensor pages.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { Alert } from "../../core/alerts.ts";
import { ResponsiveList } from "../kit/mod.ts";
import { localDateTime } from "../../core/local_time.ts";

/** Props of {@link AlertList}. */
interface Props {
  t: Translate;
  alerts: Alert[];
  /** The tripping value of each alert, worded. */
  value: (a: Alert) => string;
  offsetMinutes: number;
  /** Whether the acknowledge and resolve forms are drawn (admins). */
  actions: boolean;
  /** Where the forms come back to. */
  back?: string;
  /** Whether each rule's name links to the alert's card with its chart (`/admin/alerts?id=`). */
  detailed?: boolean;
}

const BADGE: Record<Alert["state"], string> = {
  open: "badge badge-red",
  acknowledged: "badge badge-blue",
  resolved: "badge badge-green",
};

/** The list. */
export function AlertList({ t, alerts, value, offsetMinutes, actions, back, detailed }: Props) {
  const A = (k: string, p?: Record<string, string>) => t(`alerts.${k}`, p);
  const form = (a: Alert, what: "acknowledge" | "resolve") => (
    <form method="post" action={`/admin/alerts/${a.id}/${what}`} className="inline-form">
      {back && <input type="hidden" name="back" value={back} />}
      {what === "acknowledge" && (
        <input
          type="text"
          name="note"
          maxLength={500}
          placeholder={A("note")}
          aria-label={A("note")}
        />
      )}
      <button type="submit" className="btn btn-sm btn-secondary">
        {A(what === "acknowledge" ? "ack" : "resolve")}
      </button>
    </form>
  );
  return (
    <ResponsiveList<Alert>
      label={A("title")}
      framed={false}
      testId="alerts"
      rows={alerts}
      rowKey={(a) => a.id}
      rowAttrs={(a) => ({ "data-state": a.state, "data-template": a.template })}
      empty={<p className="muted">{A("none")}</p>}
      columns={[
        {
          label: A("columns.rule"),
          primary: true,
          cell: (a) =>
            detailed
              ? (
                <a href={`/admin/alerts?id=${encodeURIComponent(a.id)}`}>
                  {A(`templates.${a.template}`)}
                </a>
              )
              : A(`templates.${a.template}`),
        },
        {
          label: A("columns.state"),
          aside: true,
          cell: (a) => <span className={BADGE[a.state]}>{A(`states.${a.state}`)}</span>,
        },
        { label: A("columns.meter"), cell: (a) => a.subject },
        {
          label: A("columns.station"),
          cell: (a) => <a href={`/admin/devices/station/${a.station_id}/data`}>#{a.station_id}</a>,
        },
        { label: A("columns.opened"), cell: (a) => localDateTime(a.opened_at, offsetMinutes) },
        { label: A("columns.value"), numeric: true, cell: (a) => value(a) || "—" },
        {
          label: A("columns.actions"),
          actions: true,
          cell: (a) => (
            <>
              {a.state === "acknowledged" &&
                (
                  <p className="muted">
                    {A("acked_by", { name: `#${a.acknowledged_by}`, note: a.note })}
                  </p>
                )}
              {a.state === "resolved" && (
                <p className="muted">
                  {a.resolved_by === null
                    ? A("resolved_auto")
                    : A("resolved_by", { name: `#${a.resolved_by}` })}
                </p>
              )}
              {actions && a.state === "open" && form(a, "acknowledge")}
              {actions && a.state !== "resolved" && form(a, "resolve")}
            </>
          ),
        },
      ]}
    />
  );
}
