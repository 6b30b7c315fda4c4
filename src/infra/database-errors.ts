// What a database error means to the code that caught it, whichever driver raised it (PostgreSQL
// through the pg adapter, PGlite, or the ORM's own codes).

/** A deadlock or serialization failure: the transaction may be run again. */
export function isRetryable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; meta?: { code?: string } };
  if (e?.code === 'P2034' || e?.meta?.code === '40P01' || e?.meta?.code === '40001') return true;
  return /deadlock detected|could not serialize access/i.test(String(e?.message ?? ''));
}

/** A unique constraint refused the write (SQLSTATE 23505, the ORM's P2002). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string; meta?: { code?: string } };
  return e?.code === 'P2002' || e?.meta?.code === '23505' || /unique constraint/i.test(String(e?.message ?? ''));
}
