// GraphQL cannot name `__v`; records carry `revision`, renamed wherever a record leaves as REST JSON
// (REST responses and webhook payloads), so both show the same shape.

/** Renames every `revision` key of a JSON text to `__v`. */
export function restShape(json: string): string {
  return json.replace(/([{,])"revision":/g, '$1"__v":');
}

/** A GraphQL result value as REST shows it. */
export function toRestValue<T = unknown>(value: unknown): T {
  return JSON.parse(restShape(JSON.stringify(value))) as T;
}
