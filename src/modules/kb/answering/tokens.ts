// `prompt_token_size` when the model endpoint reports none (or there is no model): an estimate in
// the way BPE tokenizers cut English text (a common word is one token, a long word one per ~4
// characters, each punctuation mark one). Exact counting in JavaScript costs tens of milliseconds
// per question, more than the whole retrieval.

const pieces = /\p{L}+|\p{N}+|[^\s\p{L}\p{N}]/gu;

export function estimateTokens(texts: string[]): number {
  let total = 0;
  for (const text of texts) {
    for (const match of text.matchAll(pieces)) total += Math.max(1, Math.ceil(match[0].length / 4));
  }
  return total;
}
