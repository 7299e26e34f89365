/**
 * Conditional requests for the refreshes (issue 32): a fetcher that sends the ETag of its last
 * answer as `If-None-Match` and answers null for a 304 (nothing changed, nothing to redraw).
 * A page's own tag is in its `<meta name="etag">` (`routes/_page.tsx`), so the first refresh
 * of an unchanged page is already a 304.
 */

/** Fetches `url`; null when the server answered 304 to the last answer's ETag. */
export type Revalidate = (url: string, init?: RequestInit) => Promise<Response | null>;

/** A fetcher starting from `etag` (the page's, for its own address), else from none. */
export function revalidating(etag: string | null = null): Revalidate {
  let last = etag;
  return async (url, init = {}) => {
    const headers = new Headers(init.headers);
    if (last) headers.set("if-none-match", last);
    const res = await fetch(url, { credentials: "same-origin", ...init, headers });
    if (res.status === 304) return null;
    if (res.ok) last = res.headers.get("etag");
    return res;
  };
}

/** The ETag the page was served with (its `<meta name="etag">`), or null. */
export function pageEtag(doc: Document = document): string | null {
  return doc.querySelector<HTMLMetaElement>('meta[name="etag"]')?.content || null;
}
