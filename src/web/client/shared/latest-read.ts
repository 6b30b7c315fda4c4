import { useCallback, useRef } from 'react';

/**
 * Reads that can cross (a live event's re-read, a switch of view or conversation) show only the
 * newest one's answer: an answer to a read sent before a change, or for the page just left, never
 * replaces what a later read found. `begin()` starts a read and answers whether it is still the
 * newest when its answer arrives.
 */
export function useLatestRead(): () => () => boolean {
  const newest = useRef(0);
  return useCallback(() => {
    const read = ++newest.current;
    return () => read === newest.current;
  }, []);
}
