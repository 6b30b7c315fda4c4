// An faq content is its question on the first line and its answer below: contents validate it,
// indexing weighs the question as a field of its own, answers quote the answer part.

/** Splits an faq content into its question (first line) and answer (the rest). */
export function faqParts(content: string): { question: string; answer: string } | null {
  const at = content.indexOf('\n');
  if (at < 0) return null;
  const question = content.slice(0, at).trim();
  const answer = content.slice(at + 1).trim();
  return question && answer ? { question, answer } : null;
}
