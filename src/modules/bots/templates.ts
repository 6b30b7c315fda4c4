// The intents a new internal bot starts with. `blank` is the minimum the engine needs,
// `handoff` adds a way to reach a human, `example` shows what intents can do.

export interface IntentSeed {
  intent_display_name: string;
  question: string;
  answer: string;
  attributes?: Record<string, unknown>;
  form?: { fields: Array<{ name: string; label: string; regex?: string; errorLabel?: string }>; cancelCommands?: string[]; cancelReply?: string };
}

export const templateNames = ['blank', 'handoff', 'example'] as const;
export type TemplateName = (typeof templateNames)[number];

/** Names the engine gives a meaning: `start` answers the first message, `defaultFallback` anything unmatched. */
export const startIntent = 'start';
export const fallbackIntent = 'defaultFallback';

const buttons = (...labels: string[]) => ({
  attachment: { type: 'template', buttons: labels.map((value) => ({ type: 'text', value })) },
});

const start: IntentSeed = {
  intent_display_name: startIntent,
  question: '\\start',
  answer: 'Hi! How can I help you?',
};

const fallback: IntentSeed = {
  intent_display_name: fallbackIntent,
  question: '',
  answer: "Sorry, I didn't understand that. Can you rephrase your question?",
};

const handoff: IntentSeed = {
  intent_display_name: 'agent_handoff',
  question: ['talk to an agent', 'I want to talk to a human', 'operator', 'human agent', 'speak with someone'].join('\n'),
  answer: 'Let me put you in touch with one of our agents.\n\\agent',
};

const templates: Record<TemplateName, IntentSeed[]> = {
  blank: [start, fallback],
  handoff: [
    { ...start, attributes: buttons('Talk to an agent') },
    { ...fallback, attributes: buttons('Talk to an agent') },
    handoff,
  ],
  example: [
    { ...start, answer: 'Hi! I am a demo bot. Ask me about our opening hours, prices or your password.', attributes: buttons('Opening hours', 'Prices', 'Reset my password', 'Talk to an agent') },
    { ...fallback, attributes: buttons('Opening hours', 'Prices', 'Talk to an agent') },
    {
      intent_display_name: 'opening_hours',
      question: ['Opening hours', 'When are you open?', 'What are your opening hours?', 'What time do you close?'].join('\n'),
      answer: 'We are open Monday to Friday, 9:00 to 18:00.',
    },
    {
      intent_display_name: 'prices',
      question: ['Prices', 'How much does it cost?', 'What are your prices?', 'pricing plans'].join('\n'),
      answer: 'Our Basic plan is free; Pro costs 19 per agent per month.',
      attributes: { attachment: { type: 'template', buttons: [{ type: 'url', value: 'See all plans', link: 'https://example.com/pricing' }] } },
    },
    {
      intent_display_name: 'reset_password',
      question: ['Reset my password', 'I forgot my password', 'How do I change my password?'].join('\n'),
      answer: 'Open Settings, choose Security and click "Reset password": we will e-mail you a link.',
    },
    {
      intent_display_name: 'callback',
      question: ['Call me back', 'I want a callback', 'Can someone contact me?'].join('\n'),
      answer: 'Thanks ${name}, we will contact you at ${email} within one working day.',
      form: {
        fields: [
          { name: 'name', label: 'What is your name?' },
          { name: 'email', label: 'What is your e-mail address?', regex: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$', errorLabel: 'That does not look like an e-mail address; please try again.' },
        ],
        cancelCommands: ['cancel', 'stop'],
        cancelReply: 'No problem, I stopped.',
      },
    },
    handoff,
    {
      intent_display_name: 'goodbye',
      question: ['bye', 'goodbye', 'thanks, that is all'].join('\n'),
      answer: 'Thank you for chatting with us. Goodbye!\n\\close',
    },
  ],
};

export function templateIntents(name: TemplateName): IntentSeed[] {
  return templates[name];
}
