/**
 * The zone list of /admin/pricing (spec 001 section 2): name, currency, tariff type,
 * configuration, base tariff, station count and Details, as a table on desktop and cards
 * on phones; an empty state; a notice after a save or delete.
 */
import type { Translate } from "../../services/platform/i18n.ts";
import type { ZoneView } from "../../services/zones.ts";
import type { Zone } from "../../core/zone.ts";
import { Icon } from "../icons.tsx";
import { configurationText, money } from "./format.ts";

/** Props of {@link ZoneList}. */
export interface ZoneListProps {
  t: Translate;
  /** Null when loading failed. */
  zones: ZoneView[] | null;
  notice?: string;
}

/** The page. */
export function ZoneList({ t, zones, notice }: ZoneListProps) {
  const L = (k: string, p?: Record<string, string | number>) => t(`zones.zone_list.${k}`, p);
  const details = (z: ZoneView) => (
    <a className="btn btn-sm btn-secondary" href={`/admin/zones/${z.id}`}>
      {L("details_button")}
    </a>
  );
  return (
    <>
      <div className="page-head">
        <div>
          <h1>{L("title")}</h1>
          <p className="muted">{L("subtitle")}</p>
        </div>
        <div className="page-actions">
          <a className="btn" href="/admin/zones/create" data-testid="create-zone">
            <Icon name="plus" /> {L("create")}
          </a>
        </div>
      </div>
      {notice && <div className="alert alert-success notice" role="status">{notice}</div>}
      {zones === null && <div className="alert alert-error" role="alert">{L("load_failed")}</div>}
      {zones && zones.length === 0 && (
        <section className="card empty" data-testid="empty-state">
          <h2>{L("empty_title")}</h2>
          <p>{L("empty_message")}</p>
          <a className="btn" href="/admin/zones/create">{L("create")}</a>
        </section>
      )}
      {zones && zones.length > 0 && (
        <>
          <div className="card table-wrap table-only">
            <table className="data" data-testid="zones-table">
              <thead>
                <tr>
                  <th scope="col">{L("columns.name")}</th>
                  <th scope="col">{L("columns.currency")}</th>
                  <th scope="col">{L("columns.tariff_type")}</th>
                  <th scope="col">{L("columns.configuration")}</th>
                  <th scope="col">{L("columns.base_tariff")}</th>
                  <th scope="col">{L("columns.stations")}</th>
                  <th scope="col">{L("columns.details")}</th>
                </tr>
              </thead>
              <tbody>
                {zones.map((z) => (
                  <tr key={z.id} data-zone-id={z.id}>
                    <td>
                      <a href={`/admin/zones/${z.id}`}>{z.name}</a>
                    </td>
                    <td>{z.currency}</td>
                    <td>{t(`zones.tariff_types.${z.tariff_type}`)}</td>
                    <td>{configurationText(t, z as unknown as Zone)}</td>
                    <td className="nowrap">{money(z.base_tariff, z.currency)}</td>
                    <td className="nowrap">{L("station_count", { count: z.station_count })}</td>
                    <td>{details(z)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="cards-list" aria-label={L("title")}>
            {zones.map((z) => (
              <li key={z.id} className="item-card" data-zone-id={z.id}>
                <div className="item-head">
                  <a href={`/admin/zones/${z.id}`}>{z.name}</a>
                  <span className="badge badge-grey">{z.currency}</span>
                </div>
                <dl>
                  <dt>{L("columns.tariff_type")}</dt>
                  <dd>{t(`zones.tariff_types.${z.tariff_type}`)}</dd>
                  <dt>{L("columns.configuration")}</dt>
                  <dd>{configurationText(t, z as unknown as Zone)}</dd>
                  <dt>{L("columns.base_tariff")}</dt>
                  <dd>{money(z.base_tariff, z.currency)}</dd>
                  <dt>{L("columns.stations")}</dt>
                  <dd>{L("station_count", { count: z.station_count })}</dd>
                </dl>
                <div className="row-actions">{details(z)}</div>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
