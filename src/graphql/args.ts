/**
 * Absent and null arguments both mean "leave unchanged"; `nullable` names the fields
 * where an explicit null means "clear".
 */
export function definedArgs<T extends Record<string, unknown>>(input: T, nullable: string[] = []): Partial<T> {
  return Object.fromEntries(
    Object.entries(input).filter(([k, v]) => v !== undefined && (v !== null || nullable.includes(k))),
  ) as Partial<T>;
}
