import { describe, expect, it } from 'vitest';
import { toErrorBody } from '../../src/errors.js';

// What a client is answered when a statement meets a database outage rather than a refusal of its own.

/** An error as the pg driver makes it for a message of PostgreSQL's (a DatabaseError with its SQLSTATE). */
const postgresError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });

describe('errors of a database outage', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, not 500, for "current transaction is aborted" (a hang or a dropped connection mid-transaction)', () => {
    const answer = toErrorBody(postgresError('25P02', 'current transaction is aborted, commands ignored until end of transaction block'));
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(answer.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
  });

  it('answers 503 for a backend terminated by the administrator (57P01), as the ORM wraps it', () => {
    const wrapped = Object.assign(new Error('Invalid `prisma.message.create()` invocation: terminating connection due to administrator command'), {
      code: 'P2010',
      meta: { driverAdapterError: { cause: { kind: 'postgres', code: '57P01' } } },
    });
    expect(toErrorBody(wrapped).status).toBe(503);
  });

  it('answers 503 for a connection ended under a statement and for a pool that could not connect in time', () => {
    expect(toErrorBody(new Error('Connection terminated unexpectedly')).status).toBe(503);
    expect(toErrorBody(new Error('timeout exceeded when trying to connect')).status).toBe(503);
    expect(toErrorBody(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })).status).toBe(503);
  });

  it('still answers 500 for a statement PostgreSQL refused for itself (a syntax error is a defect, not an outage)', () => {
    expect(toErrorBody(postgresError('42601', 'syntax error at or near "SELEC"')).status).toBe(500);
  });
});
