/**
 * The zone list of /admin/pricing (spec 001 section 2): name, currency, tariff type,
 * configuration, base tariff, station count and Details, as one responsive list (a table on
 * desktop, cards on phones); an empty state; a notice after a save or delete.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { ZoneView } from "../../services/zones.ts";
import { configurationText } from "./format.ts";
import { formatterOf } from "../../core/format.ts";
import { AddLink, Card, FormError, PageHeader, ResponsiveList } from "../kit/mod.ts";

/** Props of {@link ZoneList}. */
interface ZoneListProps {
  t: Translate;
  /** Null when loading failed. */
  zones: ZoneView[] | null;
  notice?: string;
}

/** The page. */
export function ZoneList({ t, zones, notice }: ZoneListProps) {
  const { price: money } = formatterOf(t);
  const L = (k: string, p?: Record<string, string | number>) => t(`zones.zone_list.${k}`, p);
  const details = (z: ZoneView) => (
    <a className="btn btn-sm btn-secondary" href={`/admin/zones/${z.id}`}>
      {L("details_button")}
    </a>
  );
  return (
    <>
      <PageHeader
        title={L("title")}
        subtitle={L("subtitle")}
        actions={<AddLink href="/admin/zones/create" testId="create-zone">{L("create")}</AddLink>}
      />
      {notice && <div className="alert alert-success notice" role="status">{notice}</div>}
      {zones === null && <FormError notice={false}>{L("load_failed")}</FormError>}
      {zones && (
        <ResponsiveList
          label={L("title")}
          testId="zones-table"
          rows={zones}
          rowKey={(z) => z.id}
          rowAttrs={(z) => ({ "data-zone-id": z.id })}
          empty={
            <Card title={L("empty_title")} className="empty" data-testid="empty-state">
              <p>{L("empty_message")}</p>
              <a className="btn" href="/admin/zones/create">{L("create")}</a>
            </Card>
          }
          columns={[
            {
              label: L("columns.name"),
              primary: true,
              cell: (z) => <a href={`/admin/zones/${z.id}`}>{z.name}</a>,
            },
            {
              label: L("columns.currency"),
              aside: true,
              cell: (z) => (
                <>
                  <span className="rl-wide-only">{z.currency}</span>
                  <span className="rl-card-only badge badge-grey">{z.currency}</span>
                </>
              ),
            },
            {
              label: L("columns.tariff_type"),
              cell: (z) => t(`zones.tariff_types.${z.tariff_type}`),
            },
            {
              label: L("columns.configuration"),
              cell: (z) => configurationText(t, z),
            },
            {
              label: L("columns.base_tariff"),
              className: "nowrap",
              cell: (z) => money(z.base_tariff, z.currency),
            },
            {
              label: L("columns.stations"),
              className: "nowrap",
              cell: (z) => L("station_count", { count: z.station_count }),
            },
            { label: L("columns.details"), actions: true, cell: details },
          ]}
        />
      )}
    </>
  );
}
