import { describe, expect, it } from 'vitest';
import { prefixEnd } from '../src/modules/leads/query.js';

// The e-mail search is the range [prefix, prefixEnd(prefix)) in code point order: every text that
// begins with the prefix lies in it, and no other.
describe('prefixEnd', () => {
  const inRange = (text: string, prefix: string) => {
    const end = prefixEnd(prefix);
    const bytes = (s: string) => Buffer.from(s, 'utf8');
    return Buffer.compare(bytes(text), bytes(prefix)) >= 0 && (end === null || Buffer.compare(bytes(text), bytes(end)) < 0);
  };

  it('moves the last character on by one', () => {
    expect(prefixEnd('ab')).toBe('ac');
    expect(prefixEnd('a@')).toBe('aA');
    expect(prefixEnd('zo\u00eb')).toBe('zo\u00ec');
  });

  it('steps over the surrogate code points, which UTF-8 cannot hold', () => {
    expect(prefixEnd('a\ud7ff')).toBe('a\ue000');
  });

  it('drops trailing U+10FFFF and moves the character before it on; none when nothing is left', () => {
    expect(prefixEnd('ab\u{10ffff}')).toBe('ac');
    expect(prefixEnd('\u{10ffff}\u{10ffff}')).toBeNull();
  });

  it('holds exactly the texts that begin with the prefix', () => {
    const texts = ['a', 'ab', 'ab@x', 'ab\u{10ffff}z', 'abz', 'ac', 'aa', 'b', 'zo\u00eb', 'zo\u00eba', 'zo\u00ec', '\ud7ff', '\ue000x'];
    for (const prefix of ['ab', 'a', 'zo\u00eb', '\ud7ff', 'ab\u{10ffff}']) {
      for (const text of texts) expect(inRange(text, prefix), `${text} / ${prefix}`).toBe(text.startsWith(prefix));
    }
  });
});
