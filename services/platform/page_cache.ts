/**
 * Pages kept in memory by their ETag (`routes/_page_tag.ts`), so that the same page asked
 * again is answered without loading or rendering it: the tag is made of everything the page
 * shows (the revisions read from KV at each request, in any process), so a kept page is never
 * served after its data changed. A page is kept cut at its CSP nonce, which each answer fills
 * with its own. Bounded by size, the least recently used page leaves first.
 */

/** A page kept: its HTML cut at the nonce. */
type Kept = readonly string[];

/** Characters of HTML a process keeps (at most 16 MB as UTF-16; a page is 10-40 KB). */
export const PAGE_CACHE_CHARS = 8 * 1024 * 1024;

/** A bounded map of pages by tag, least recently used first. */
export class PageCache {
  #pages = new Map<string, Kept>();
  #chars = 0;
  constructor(private readonly limit = PAGE_CACHE_CHARS) {}

  /** The page kept under `tag` with `nonce` filled in, or null. */
  get(tag: string, nonce: string): string | null {
    const kept = this.#pages.get(tag);
    if (!kept) return null;
    this.#pages.delete(tag);
    this.#pages.set(tag, kept);
    return kept.join(nonce);
  }

  /** Keeps `html` (rendered with `nonce`) under `tag`. */
  set(tag: string, html: string, nonce: string): void {
    if (html.length > this.limit / 8) return;
    const old = this.#pages.get(tag);
    if (old) {
      this.#pages.delete(tag);
      this.#chars -= size(old);
    }
    const kept = nonce ? html.split(nonce) : [html];
    this.#pages.set(tag, kept);
    this.#chars += size(kept);
    for (const [t, k] of this.#pages) {
      if (this.#chars <= this.limit) break;
      this.#pages.delete(t);
      this.#chars -= size(k);
    }
  }
}

const size = (k: Kept) => k.reduce((n, s) => n + s.length, 0);
