import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { YogaServerOptions } from 'graphql-yoga';

// GraphiQL at /graphql, served whole from the npm package (scripts, styles, editor workers inlined
// in the page): it works on a machine with no internet, where yoga's default page, which loads its
// scripts from a CDN, stays blank. Subscriptions go over graphql-ws on the same path; the headers
// set in GraphiQL's header editor travel with each subscribe message (`extensions.headers`), where
// the websocket server reads the caller's Authorization (src/realtime/websocket.ts).

export function graphiqlOptions(enabled: boolean): Pick<YogaServerOptions<object, object>, 'graphiql' | 'renderGraphiQL'> {
  if (!enabled) return { graphiql: false };
  return {
    graphiql: {
      title: 'Support platform GraphQL',
      subscriptionsProtocol: 'WS',
    },
    renderGraphiQL,
  };
}
