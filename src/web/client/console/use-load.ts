import { useCallback, useEffect, useState } from 'react';

/**
 * Loads with `fetcher` on mount, again after every successful action (`act`) and, with `everyMs`,
 * again while on screen; an error of either is kept to show.
 */
export function useLoad<T>(fetcher: () => Promise<T>, everyMs?: number) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    fetcher().then(setData, (e: Error) => setError(e.message));
  }, [fetcher]);
  useEffect(load, [load]);
  useEffect(() => {
    if (!everyMs) return;
    const timer = setInterval(load, everyMs);
    return () => clearInterval(timer);
  }, [load, everyMs]);
  const act = async (run: () => Promise<unknown>) => {
    setError(null);
    try {
      await run();
      load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return { data, error, load, act };
}
