import type { ApiTag } from '../../module.js';

// One tag per resource, from a path's first segments after the project. Each module names its
// tags and the segments they cover (its module.ts); a route under a segment no tag covers is
// tagged by the segment itself (the document test asks for it to be covered).

/** The document's own paths. */
export const documentationTag: ApiTag = { name: 'Documentation', description: 'This document and its page.', segments: ['openapi.json', 'docs'] };

/** The tagger of a route's path (`/:project_id/requests/:request_id/messages` → Messages): the tag covering its longest prefix of segments. */
export function resourceTagger(tags: readonly ApiTag[]): (path: string) => string {
  const bySegments = new Map<string, string>();
  for (const tag of [...tags, documentationTag]) for (const segment of tag.segments) bySegments.set(segment, tag.name);
  return (path) => {
    const segments = path.split('/').filter((s) => s && !s.startsWith(':') && !s.startsWith('{'));
    for (let length = segments.length; length > 0; length--) {
      const tag = bySegments.get(segments.slice(0, length).join('/'));
      if (tag) return tag;
    }
    return segments[0] ?? 'Other';
  };
}
