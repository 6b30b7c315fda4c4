import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { restRoutes } from '../src/graphql/schema.js';
import { isHandRoute } from '../src/rest/hand-route.js';

// One route table holds every /v3 route (src/rest/router.ts, built from the modules' `routes`
// maps): no other code matches a /v3 path, and a route written by hand is one entry of its
// module's map, with its operation for the OpenAPI document.

const src = path.resolve(import.meta.dirname, '../src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' || full.endsWith(path.join('web', 'client', 'gql')) ? [] : sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('the one route table', () => {
  it('is the only place a /v3 path is matched: no regular expression over a /v3 path anywhere else in src', () => {
    // A regex literal naming /v3 (`/^\/v3\/.../`), or one built from the base path or a /v3 string.
    const matcher = /\/\^?\\\/v3\b|new RegExp\([^)]*(restBasePath|\/v3)/;
    const offenders = sources(src).filter((file) => matcher.test(readFileSync(file, 'utf8')));
    expect(offenders.map((file) => path.relative(src, file))).toEqual([]);
  });

  it('holds the routes written by hand as entries of their modules\' routes maps, each with its OpenAPI operation', () => {
    const hand = Object.entries(restRoutes).filter(([, route]) => isHandRoute(route));
    expect(hand.map(([key]) => key).sort()).toEqual([
      'Route.conversationsCsv',
      'Route.deleteFile',
      'Route.downloadFile',
      'Route.readFile',
      'Route.readImage',
      'Route.uploadFile',
      'Route.uploadImage',
      'Route.uploadKbContent',
      'Route.uploadProjectFile',
    ]);
    for (const [key, route] of hand) {
      expect(isHandRoute(route) && route.operation.summary, key).toBeTruthy();
      expect(key, key).toMatch(/^Route\.\w+$/);
    }
  });
});
