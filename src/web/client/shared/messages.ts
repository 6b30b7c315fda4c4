// What both clients show of a message, from the spec's advanced attributes.

export interface ChatMessage {
  _id: string;
  sender: string;
  senderFullname?: string | null;
  text?: string | null;
  type: string;
  metadata?: any;
  attributes?: any;
  createdAt: string;
  status?: number;
  receipts?: any;
  /** A notice for the agents (the server's rule): end users never see it. */
  hidden: boolean;
  /** Written by one of the project's bots. */
  sentByBot: boolean;
}

export interface Button {
  type: 'text' | 'url' | 'action';
  value: string;
  link?: string;
}

/** Oldest first by the client's timestamp when it gave one (`clienttimestamp`), else by when it was stored. */
export function inOrder<M extends ChatMessage>(messages: M[]): M[] {
  const at = (m: M) => Number(m.attributes?.clienttimestamp ?? Date.parse(m.createdAt));
  return [...messages].sort((a, b) => at(a) - at(b) || (a._id < b._id ? -1 : 1));
}

/** Adds or replaces by id. */
export function merged<M extends ChatMessage>(messages: M[], incoming: M[]): M[] {
  const byId = new Map(messages.map((m) => [m._id, m]));
  for (const m of incoming) byId.set(m._id, m);
  return inOrder([...byId.values()]);
}

export const buttonsOf = (m: ChatMessage): Button[] =>
  Array.isArray(m.attributes?.attachment?.buttons) ? (m.attributes.attachment.buttons as Button[]) : [];
