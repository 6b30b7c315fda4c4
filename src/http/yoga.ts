import type { IncomingMessage } from 'node:http';
import type { createYoga } from 'graphql-yoga';
import type { Context } from '../context.js';

/** The yoga instance the app builds and the lanes hand requests to. */
export type Yoga = ReturnType<typeof createYoga<{ req?: IncomingMessage }, Context>>;
