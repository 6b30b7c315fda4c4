// Chatbot parameters: the values bots set on a request (answers to intent forms, attributes a bot
// writes). They live in the request's `attributes.chatbot_parameters`, which
// GET /requests/:request_id/chatbot/parameters returns.

export const parametersAttribute = 'chatbot_parameters';

const objectOr = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

export function chatbotParameters(attributes: unknown): Record<string, unknown> {
  return objectOr(objectOr(attributes)[parametersAttribute]);
}

/** The request attributes with `values` merged into the chatbot parameters. */
export function withChatbotParameters(attributes: unknown, values: Record<string, unknown>): Record<string, unknown> {
  const current = objectOr(attributes);
  return { ...current, [parametersAttribute]: { ...chatbotParameters(current), ...values } };
}
