import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';
import { badInput, parseInput } from '../../../errors.js';
import { bodyText, fetchDocument, FetchFailure, type FetchLimits } from './fetch.js';
import { inflate, InflateBudget, InflateLimitError } from './inflate.js';

// Turns a sitemap (or a sitemap index, followed down to its sitemaps) into the list of its page urls.
// Nothing is stored. One deadline covers the whole call and the sitemaps fetched are capped, since an
// index may name thousands of them, each of which may be slow: the answer holds what was gathered,
// and `errors` names what was cut short.

export interface SitemapError {
  url: string;
  message: string;
}

export interface SitemapResult {
  url: string;
  sites: string[];
  errors: SitemapError[];
}

export interface SitemapLimits extends FetchLimits {
  /** For the whole call, every sitemap included. */
  deadlineMs: number;
  /** Sitemap documents fetched, indexes and the sitemaps they name together. */
  maxDocuments: number;
}

const maxListed = 50;
const maxSites = 50_000;
// Sitemaps fetched at once: a few slow hosts do not use up the deadline one after the other.
const concurrency = 4;
// Sitemaps not read are named one by one up to this many, then counted.
const maxNamedSkips = 100;

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

const sitemapInput = z
  .object({ sitemap: httpUrl.optional(), list: z.array(httpUrl).max(maxListed).optional() })
  .refine((input) => input.sitemap || input.list?.length, { message: 'is required', path: ['sitemap'] });

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

interface ParsedSitemap {
  pages: string[];
  sitemaps: string[];
}

function parse(xml: string): ParsedSitemap {
  const trimmed = xml.trim();
  // The protocol also allows a plain text file with one url per line.
  if (!trimmed.startsWith('<')) {
    return { pages: trimmed.split(/\s*\n\s*/).filter(Boolean), sitemaps: [] };
  }
  const doc = parser.parse(trimmed) as {
    urlset?: { url?: Array<{ loc?: unknown }> };
    sitemapindex?: { sitemap?: Array<{ loc?: unknown }> };
  };
  const locs = (entries: Array<{ loc?: unknown }> | undefined) =>
    (entries ?? []).map((e) => (typeof e?.loc === 'string' ? e.loc.trim() : '')).filter(Boolean);
  if (doc.urlset) return { pages: locs(doc.urlset.url), sitemaps: [] };
  if (doc.sitemapindex) return { pages: [], sitemaps: locs(doc.sitemapindex.sitemap) };
  throw new Error('not a sitemap: neither a urlset nor a sitemapindex');
}

type Outcome = { parsed: ParsedSitemap } | { error: Error };

export async function readSitemap(input: unknown, limits: SitemapLimits): Promise<SitemapResult> {
  const data = parseInput(sitemapInput, input);
  const roots = [...(data.sitemap ? [data.sitemap] : []), ...(data.list ?? [])];
  const deadline = Date.now() + limits.deadlineMs;
  const sites = new Set<string>();
  const errors: SitemapError[] = [];
  const seen = new Set<string>();
  const skipped: string[] = [];
  let capped = false;
  // Level by level, so the answer lists sitemaps in the order their indexes name them.
  let level = roots;
  while (level.length) {
    const batch: string[] = [];
    for (const url of level) {
      if (seen.has(url)) continue;
      if (seen.size >= limits.maxDocuments) skipped.push(url);
      else {
        seen.add(url);
        batch.push(url);
      }
    }
    const outcomes = await inTurn(batch, (url) => read(url, limits, deadline));
    const next: string[] = [];
    for (const [i, url] of batch.entries()) {
      const outcome = outcomes[i];
      if ('error' in outcome) {
        const { error } = outcome;
        // Refusing the sitemap the caller named is a bad request; a refused child is only reported.
        if (error instanceof FetchFailure && error.refused && roots.length === 1 && url === roots[0]) {
          throw badInput('sitemap', `sitemap: ${error.message}`);
        }
        errors.push({ url, message: error.message });
        continue;
      }
      for (const child of outcome.parsed.sitemaps) {
        if (httpUrl.safeParse(child).success) next.push(child);
        else errors.push({ url: child, message: 'not an http(s) URL' });
      }
      for (const page of outcome.parsed.pages) {
        if (!httpUrl.safeParse(page).success) errors.push({ url: page, message: 'not an http(s) URL' });
        else if (sites.size < maxSites) sites.add(page);
        else capped = true;
      }
    }
    level = next;
  }
  const cap = `only ${limits.maxDocuments} sitemap documents are fetched per call`;
  for (const url of skipped.slice(0, maxNamedSkips)) errors.push({ url, message: `not read: ${cap}` });
  if (skipped.length > maxNamedSkips) {
    errors.push({ url: roots[0], message: `${skipped.length - maxNamedSkips} more sitemaps not read: ${cap}` });
  }
  if (capped) errors.push({ url: roots[0], message: `only the first ${maxSites} urls are listed` });
  return { url: roots[0], sites: [...sites], errors };
}

/** One sitemap, fetched and parsed before the call's deadline; failures are returned, not thrown. */
async function read(url: string, limits: SitemapLimits, deadline: number): Promise<Outcome> {
  const late = { error: new Error(`not read: the call's ${limits.deadlineMs} ms deadline passed`) };
  if (Date.now() >= deadline) return late;
  const bound = deadline < Date.now() + limits.timeoutMs;
  try {
    const document = await fetchDocument(url, limits, { accept: 'application/xml, text/xml, text/plain;q=0.8, */*;q=0.5', deadline });
    // A .xml.gz sitemap: its gzip is part of the file, not a content encoding.
    const gzipped = document.body.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]));
    const xml = gzipped
      ? (await inflate(document.body, 'gzip', new InflateBudget(Math.min(limits.maxBytes, limits.inflateMaxBytes)))).toString('utf8')
      : bodyText(document);
    return { parsed: parse(xml) };
  } catch (error) {
    if (error instanceof FetchFailure && error.timedOut && bound) return late;
    if (error instanceof InflateLimitError) return { error: new Error(`the gzipped sitemap ${error.message}`) };
    return { error: error as Error };
  }
}

/** Runs `work` over the items, a few at a time, keeping their order. */
async function inTurn<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const runner = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, runner));
  return results;
}
