import { AsyncLocalStorage } from 'node:async_hooks';
import pino from 'pino';

export type Logger = pino.Logger;

// The request a piece of work runs for: set once where node hands the request over, it follows
// the request through every await, so each log line written on its behalf (in a lane, yoga, a
// service, the database layer) and each error body carries its id without passing a child logger
// down every call.
const requestScope = new AsyncLocalStorage<string>();

/** Runs `work` on behalf of the request `requestId`. */
export function inRequestScope<T>(requestId: string, work: () => T): T {
  return requestScope.run(requestId, work);
}

/** The id of the request the current work runs for, if any. */
export function currentRequestId(): string | undefined {
  return requestScope.getStore();
}

// Secrets never reach the log: headers, passwords and tokens are redacted wherever they appear.
// Lines go to stdout unless a destination is given (tests read them back).
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    mixin() {
      const requestId = requestScope.getStore();
      return requestId === undefined ? {} : { request_id: requestId };
    },
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'secret',
        '*.secret',
        'authorization',
        '*.authorization',
        'headers.authorization',
        'req.headers.authorization',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
