import { createContext, useContext } from 'react';
import type { Client } from 'graphql-ws';

/** Who is signed in to the console, and their live connection. */
export interface ConsoleSession {
  token: string;
  userId: string;
  name: string;
  live: Client;
}

export const SessionContext = createContext<ConsoleSession | null>(null);

export function useSession(): ConsoleSession {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in console');
  return session;
}

const key = 'support-console:auth';

export interface StoredAuth {
  token: string;
  userId: string;
  name: string;
}

export function storedAuth(): StoredAuth | null {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

export function storeAuth(auth: StoredAuth | null) {
  if (auth) localStorage.setItem(key, JSON.stringify(auth));
  else localStorage.removeItem(key);
}
