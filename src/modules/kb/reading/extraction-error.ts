/** The document cannot give text (corrupt, unsupported, empty, too large to read): retrying will not help. */
export class ExtractionError extends Error {}
