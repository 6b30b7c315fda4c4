import { describe, expect, it } from 'vitest';
import type { Intent } from '../../src/generated/prisma/client.js';
import { IntentIndex, IntentIndexCache, normalize } from '../../src/modules/bots/engine/matcher.js';

// The bot's intent matcher on its own: exact lines first, then TF-IDF similarity above a threshold.

function intent(name: string, question: string, enabled = true): Intent {
  return { intent_display_name: name, question, enabled } as Intent;
}

const intents = [
  intent('hours', 'What are your opening hours?\nWhen do you open'),
  intent('shipping', 'How long does shipping take\nDelivery time to Italy'),
  intent('refund', 'I want a refund\nMoney back please'),
  intent('retired', 'Where is my parcel', false),
  intent('defaultFallback', 'anything at all'),
];

describe('intent matcher', () => {
  it('normalises case, accents, punctuation and spaces', () => {
    expect(normalize('¿Dónde   ESTÁ?')).toBe('donde esta');
  });

  it('answers an exact line (after normalising) with score 1', () => {
    expect(new IntentIndex(intents).match('  when DO you open!! ')).toMatchObject({ intent: { intent_display_name: 'hours' }, score: 1 });
  });

  it('finds the closest intent by similarity for a text that is no exact line', () => {
    const found = new IntentIndex(intents).match('how long does the shipping take');
    expect(found?.intent.intent_display_name).toBe('shipping');
    expect(found!.score).toBeGreaterThanOrEqual(0.5);
    expect(found!.score).toBeLessThan(1);
  });

  it('answers nothing below the threshold', () => {
    expect(new IntentIndex(intents).match('the weather on Mars')).toBeNull();
  });

  it('never matches a disabled intent or the fallback by its question', () => {
    const index = new IntentIndex(intents);
    expect(index.match('Where is my parcel')).toBeNull();
    expect(index.match('anything at all')).toBeNull();
    // Still reachable by name (an action may name it).
    expect(index.intent('retired')?.intent_display_name).toBe('retired');
  });

  it('answers nothing for a text with no words', () => {
    expect(new IntentIndex(intents).match('?!')).toBeNull();
  });

  it('rebuilds a bot index only when the bot revision changes', async () => {
    const cache = new IntentIndexCache();
    let loads = 0;
    const load = async () => (loads++, intents);
    const first = await cache.get('bot', 1, load);
    expect(await cache.get('bot', 1, load)).toBe(first);
    expect(await cache.get('bot', 2, load)).not.toBe(first);
    expect(loads).toBe(2);
  });
});
