import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { z } from 'zod';
import { badInput, parseInput } from '../../errors.js';
import { bodyText, fetchDocument, FetchFailure, type FetchLimits } from './fetch.js';

// Turns a sitemap (or a sitemap index, followed down to its sitemaps) into the list of its page urls.
// Nothing is stored.

export interface SitemapError {
  url: string;
  message: string;
}

export interface SitemapResult {
  url: string;
  sites: string[];
  errors: SitemapError[];
}

const maxSitemaps = 50;
const maxSites = 50_000;

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
  .object({ sitemap: httpUrl.optional(), list: z.array(httpUrl).max(maxSitemaps).optional() })
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

export async function readSitemap(input: unknown, limits: FetchLimits): Promise<SitemapResult> {
  const data = parseInput(sitemapInput, input);
  const roots = [...(data.sitemap ? [data.sitemap] : []), ...(data.list ?? [])];
  const sites = new Set<string>();
  const errors: SitemapError[] = [];
  const seen = new Set<string>();
  const pending = [...roots];
  let capped = false;
  while (pending.length) {
    const url = pending.shift()!;
    if (seen.has(url)) continue;
    if (seen.size >= maxSitemaps) {
      errors.push({ url, message: `not read: more than ${maxSitemaps} sitemaps` });
      continue;
    }
    seen.add(url);
    let parsed: ParsedSitemap;
    try {
      const document = await fetchDocument(url, limits, 'application/xml, text/xml, text/plain;q=0.8, */*;q=0.5');
      const xml = document.body.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))
        ? gunzipSync(document.body, { maxOutputLength: limits.maxBytes }).toString('utf8')
        : bodyText(document);
      parsed = parse(xml);
    } catch (error) {
      // Refusing the sitemap the caller named is a bad request; a refused child is only reported.
      if (error instanceof FetchFailure && error.refused && roots.includes(url) && roots.length === 1) {
        throw badInput('sitemap', `sitemap: ${error.message}`);
      }
      errors.push({ url, message: (error as Error).message });
      continue;
    }
    for (const child of parsed.sitemaps) {
      if (httpUrl.safeParse(child).success) pending.push(child);
      else errors.push({ url: child, message: 'not an http(s) URL' });
    }
    for (const page of parsed.pages) {
      if (!httpUrl.safeParse(page).success) errors.push({ url: page, message: 'not an http(s) URL' });
      else if (sites.size < maxSites) sites.add(page);
      else capped = true;
    }
  }
  if (capped) errors.push({ url: roots[0], message: `only the first ${maxSites} urls are listed` });
  return { url: roots[0], sites: [...sites], errors };
}
