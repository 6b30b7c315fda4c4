// A suggested reply, as every source (and the model's draft) gives it.

export type ReplySource = 'kb' | 'history' | 'canned' | 'model';

export interface SuggestedReply {
  text: string;
  source: ReplySource;
  /** The content id (kb), the request it was learned from (history), the canned response's id, or null (model). */
  ref: string | null;
  score: number;
  /** What a model-drafted reply used (the other sources' replies it was given); empty otherwise. */
  cites?: Array<{ source: ReplySource; ref: string | null }>;
}
