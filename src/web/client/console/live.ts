import { useEffect, useRef } from 'react';
import { subscribe } from '../api.js';
import { ProjectEvents } from './operations.js';
import { useSession } from './session.js';

/**
 * Runs `onEvent` for each event of the project whose name `matches` (every teammate, request and
 * message change is one), and `onResync` after a reconnect that left no cursor to resume from.
 * Several events in a burst call `onEvent` once, 25 ms after the first.
 */
export function useProjectEvents(projectId: string, matches: (name: string, subject: string) => boolean, onEvent: () => void) {
  const { live } = useSession();
  const latest = useRef({ matches, onEvent });
  latest.current = { matches, onEvent };
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const schedule = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        latest.current.onEvent();
      }, 25);
    };
    const off = subscribe(
      live,
      ProjectEvents,
      { project: projectId },
      (d) => d.projectEvents.seq,
      (d) => {
        if (latest.current.matches(d.projectEvents.name, d.projectEvents.subject)) schedule();
      },
      schedule,
    );
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [live, projectId]);
}
