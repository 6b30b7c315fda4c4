import pino from 'pino';
import { currentRequestId } from './request-scope.js';

export type Logger = pino.Logger;

// Secrets never reach the log: headers, passwords and tokens are redacted wherever they appear.
// Lines go to stdout unless a destination is given (tests read them back).
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    mixin() {
      const requestId = currentRequestId();
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
