import { useCallback, useRef } from 'react';

/**
 * Reads that can cross (a live event's re-read, a switch of view or conversation) never show an
 * answer older than the one on screen: `begin()` starts a read and answers a check to make when its
 * answer arrives, true when that answer may be shown. An answer is shown as soon as it arrives
 * unless a read started after it has been shown already (so a burst of events shows the first
 * fresh answer at once, not only the last), and never when its read started before `scope` last
 * changed (the view or conversation the agent just left).
 */
export function useLatestRead(scope: unknown): () => () => boolean {
  const state = useRef({ next: 0, shown: -1, floor: 0, scope });
  if (state.current.scope !== scope) {
    state.current.scope = scope;
    state.current.floor = state.current.next;
  }
  return useCallback(() => {
    const reads = state.current;
    const read = reads.next++;
    return () => {
      if (read < reads.floor || read < reads.shown) return false;
      reads.shown = read;
      return true;
    };
  }, []);
}
