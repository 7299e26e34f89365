/**
 * The pager of a server-paged list: "x–y of N", previous and next, page numbers around the
 * current one and the page sizes. Plain links (no JavaScript), in a `nav` named for screen
 * readers; the current page carries `aria-current="page"`.
 *
 * ```tsx
 * <Pager t={t} label="Stations" page={page} href={(p) => listHref("/admin/devices", p, ...)} />
 * ```
 */
import type { Translate } from "../../services/platform/i18n.ts";
import {
  type ListQuery,
  type Page,
  PAGE_SIZES,
  pageRange,
  type PageSize,
  type SortDir,
} from "../../core/paging.ts";

/** Props of {@link Pager}. */
export interface PagerProps {
  t: Translate;
  /** What the list holds ("Stations"), part of the nav's accessible name. */
  label: string;
  page: Pick<Page<unknown>, "page" | "size" | "pages" | "total">;
  /** The URL of another page or page size of the same list (search and sort kept). */
  href: (to: { page: number; size: PageSize }) => string;
}

/** The page numbers shown: the first, the last and two either side of the current one. */
export function pageNumbers(page: number, pages: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p === 1 || p === pages || Math.abs(p - page) <= 2) out.push(p);
    else if (out[out.length - 1] !== null) out.push(null);
  }
  return out;
}

/** The pager. */
export function Pager({ t, label, page, href }: PagerProps) {
  const { from, to } = pageRange(page);
  const go = (p: number) => href({ page: p, size: page.size });
  return (
    <nav className="pager" aria-label={t("common.pager.label", { list: label })}>
      <p className="pager-range" aria-live="polite">
        {t("common.pager.range", { from, to, total: page.total })}
      </p>
      {page.pages > 1 && (
        <ul className="pager-pages">
          <li>
            {page.page > 1
              ? <a href={go(page.page - 1)} rel="prev">{t("common.pager.previous")}</a>
              : <span aria-disabled="true">{t("common.pager.previous")}</span>}
          </li>
          {pageNumbers(page.page, page.pages).map((p, i) =>
            p === null ? <li key={`gap${i}`} aria-hidden="true">…</li> : (
              <li key={p}>
                <a
                  href={go(p)}
                  aria-current={p === page.page ? "page" : undefined}
                  aria-label={t("common.pager.page", { n: p })}
                >
                  {p}
                </a>
              </li>
            )
          )}
          <li>
            {page.page < page.pages
              ? <a href={go(page.page + 1)} rel="next">{t("common.pager.next")}</a>
              : <span aria-disabled="true">{t("common.pager.next")}</span>}
          </li>
        </ul>
      )}
      {page.total > PAGE_SIZES[0] && (
        <p className="pager-sizes">
          <span>{t("common.pager.per_page")}</span>
          {PAGE_SIZES.map((s) => (
            <a
              key={s}
              href={href({ page: 1, size: s })}
              aria-current={s === page.size ? "true" : undefined}
            >
              {s}
            </a>
          ))}
        </p>
      )}
    </nav>
  );
}

/** What a paged list's component needs to draw its pager and sortable headers. */
export interface Paging<S extends string = string> {
  query: ListQuery<S>;
  page: Pick<Page<unknown>, "page" | "size" | "pages" | "total">;
  /** The URL of the list with another query (the list's path and fixed parameters kept). */
  href: (query: ListQuery<S>) => string;
}

/** The `sort` of a column sorted by `key`: ascending first, then the other way. */
export function sortBy<S extends string>(
  t: Translate,
  paging: Paging<S> | undefined,
  key: S,
  label: string,
): { href: string; dir: SortDir | null; title: string } | undefined {
  if (!paging) return undefined;
  const { query } = paging;
  const current = query.sort === key ? query.dir : null;
  return {
    href: paging.href({ ...query, sort: key, dir: current === "asc" ? "desc" : "asc", page: 1 }),
    dir: current,
    title: t("common.pager.sort_by", { column: label }),
  };
}

/** The pager of a {@link Paging}. */
export function PagerOf<S extends string>(
  { t, label, paging }: { t: Translate; label: string; paging: Paging<S> },
) {
  return (
    <Pager
      t={t}
      label={label}
      page={paging.page}
      href={(to) => paging.href({ ...paging.query, ...to })}
    />
  );
}
