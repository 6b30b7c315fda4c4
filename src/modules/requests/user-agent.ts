import Bowser from 'bowser';

// The browser, operating system and kind of device a request's `userAgent` names, parsed by
// bowser when read. Visitors' user agents repeat, and a list page reads up to 100 at once: each
// distinct string is parsed once per process (the most recent 1,000 are kept).

export interface Software {
  name: string;
  version: string | null;
}

export interface ParsedUserAgent {
  browser: Software | null;
  os: Software | null;
  /** desktop, mobile, tablet, tv or bot; null when unknown. */
  device: string | null;
}

const keep = 1_000;
const parsed = new Map<string, ParsedUserAgent>();

const software = (part: { name?: string; version?: string } | undefined): Software | null =>
  part?.name ? { name: part.name, version: part.version || null } : null;

export function parseUserAgent(userAgent: string | null | undefined): ParsedUserAgent | null {
  if (!userAgent?.trim()) return null;
  let found = parsed.get(userAgent);
  if (found) return found;
  const result = Bowser.parse(userAgent);
  found = { browser: software(result.browser), os: software(result.os), device: result.platform?.type || null };
  if (parsed.size >= keep) parsed.delete(parsed.keys().next().value!);
  parsed.set(userAgent, found);
  return found;
}
