import { useCallback, useEffect, useRef, useState } from 'react';
import type { Client } from 'graphql-ws';
import { graphql } from '../gql/index.js';
import { request } from '../api.js';

// Typing indicators both ways: the typist's client says it is typing (at most every two seconds
// while keys are pressed) and that it stopped (three seconds after the last key, or on sending);
// the other side shows who types, and forgets a typist it has not heard from for six seconds
// (a closed tab says nothing). Nothing is stored: the server relays them live only.

const SendTyping = graphql(`
  mutation SendTyping($project: String!, $request: String!, $typing: Boolean!) {
    sendTyping(project_id: $project, request_id: $request, typing: $typing) { at }
  }
`);

const TypingEvents = graphql(`
  subscription TypingEvents($project: String!, $request: String!) {
    typing(project_id: $project, request_id: $request) { user_id fullname typing at }
  }
`);

const resendEvery = 2000;
const stopAfter = 3000;
const forgetAfter = 6000;

export interface Typist {
  userId: string;
  fullname: string;
}

/**
 * Who else is typing in the request, and `keyPressed`/`stopped` for the caller's own typing.
 * `enabled` is false until the request exists (there is nothing to type into before).
 */
export function useTyping(options: { client: Client | null; token: string | null; projectId: string; requestId: string; me: string; enabled: boolean }) {
  const { client, token, projectId, requestId, me, enabled } = options;
  const [typists, setTypists] = useState<Array<Typist & { until: number }>>([]);
  const own = useRef<{ sentAt: number; stopTimer: ReturnType<typeof setTimeout> | null }>({ sentAt: 0, stopTimer: null });

  useEffect(() => {
    if (!client || !enabled) return;
    const off = client.subscribe<{ typing: { user_id: string; fullname?: string | null; typing: boolean } }>(
      { query: TypingEvents.toString(), variables: { project: projectId, request: requestId } },
      {
        next: ({ data }) => {
          const signal = data?.typing;
          if (!signal || signal.user_id === me) return;
          setTypists((all) => {
            const others = all.filter((t) => t.userId !== signal.user_id);
            return signal.typing ? [...others, { userId: signal.user_id, fullname: signal.fullname || 'Someone', until: Date.now() + forgetAfter }] : others;
          });
        },
        error: () => {},
        complete: () => {},
      },
    );
    return () => off();
  }, [client, enabled, projectId, requestId, me]);

  // Typists not heard from for a while are forgotten.
  useEffect(() => {
    if (!typists.length) return;
    const timer = setInterval(() => setTypists((all) => all.filter((t) => t.until > Date.now())), 1000);
    return () => clearInterval(timer);
  }, [typists.length]);

  const send = useCallback(
    (typing: boolean) => {
      if (!token || !enabled) return;
      void request(SendTyping, { project: projectId, request: requestId, typing }, token).catch(() => {});
    },
    [token, enabled, projectId, requestId],
  );

  const stopped = useCallback(() => {
    const state = own.current;
    if (state.stopTimer) clearTimeout(state.stopTimer);
    state.stopTimer = null;
    if (state.sentAt) send(false);
    state.sentAt = 0;
  }, [send]);

  const keyPressed = useCallback(() => {
    const state = own.current;
    if (Date.now() - state.sentAt > resendEvery) {
      state.sentAt = Date.now();
      send(true);
    }
    if (state.stopTimer) clearTimeout(state.stopTimer);
    state.stopTimer = setTimeout(stopped, stopAfter);
  }, [send, stopped]);

  useEffect(() => () => stopped(), [stopped]);

  /** A message from a typist ends their typing. */
  const spoke = useCallback((userId: string) => setTypists((all) => all.filter((t) => t.userId !== userId)), []);

  return { typists: typists as Typist[], keyPressed, stopped, spoke };
}

/** "Ann is typing…", "Ann and Bob are typing…", or null. */
export function typingLine(typists: Typist[]): string | null {
  if (!typists.length) return null;
  const names = typists.map((t) => t.fullname);
  return names.length === 1 ? `${names[0]} is typing…` : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} are typing…`;
}
