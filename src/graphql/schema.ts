import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.js';
import './scalars.js';
import '../realtime/schema.js';
import { routes as authRoutes } from '../modules/auth/schema.js';
import { routes as projectRoutes } from '../modules/projects/schema.js';
import { routes as teammateRoutes } from '../modules/teammates/schema.js';

// Importing a module's schema file registers its types; its `routes` give their /v3 REST paths.
export const restRoutes = {
  ...authRoutes,
  ...projectRoutes,
  ...teammateRoutes,
};

export const schema = builder.toSchema();

export const restOptions = { routes: restRoutes, title: 'Support platform REST API', version: '3' };

/** The SDL as checked in: sorted, so it only changes when the schema does. */
export const printableSchema = () => lexicographicSortSchema(schema);
