import { createRequire } from 'node:module';
import ipaddr from 'ipaddr.js';
import type { Lookup } from 'geoip-lite';

// Where a client address is, from the offline GeoLite2 database that the npm package geoip-lite
// ships in its own files (nothing is downloaded, at install or at run time). The database is read
// on the first lookup of a public address (about 0.5 s and 150 MB of memory); a server whose
// clients all come from private addresses never reads it.

export interface Location {
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 3166-2 subdivision code (e.g. ENG, CA), or null. */
  region: string | null;
  city: string | null;
  /** Latitude and longitude, or null. */
  ll: [number, number] | null;
}

let database: { lookup(ip: string): Lookup | null } | undefined;

/** The location of a public unicast address; null for a private, loopback or reserved one, or an unknown one. */
export function locate(address: string | null | undefined): Location | null {
  if (!address) return null;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return null;
  }
  if (parsed.range() !== 'unicast') return null;
  database ??= createRequire(import.meta.url)('geoip-lite') as typeof database;
  const found = database!.lookup(parsed.toString());
  if (!found || !found.country) return null;
  return {
    country: found.country,
    region: found.region || null,
    city: found.city || null,
    ll: Array.isArray(found.ll) && found.ll.length === 2 ? [found.ll[0], found.ll[1]] : null,
  };
}
