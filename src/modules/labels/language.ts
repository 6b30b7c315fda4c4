import { badInput } from '../../errors.js';

// Language identifiers are BCP 47 tags (`en`, `pt-BR`), stored lower-case with a hyphen so
// `pt_BR`, `PT-br` and `pt-br` name the same label set.

const tag = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/;

export function normaliseLanguage(value: unknown, field = 'lang'): string {
  if (typeof value !== 'string' || !value.trim()) throw badInput(field, `${field}: is required`);
  const lang = value.trim().replace(/_/g, '-').toLowerCase();
  if (!tag.test(lang)) throw badInput(field, `${field}: must be a language identifier such as en or pt-BR`);
  return lang;
}

/** The tag itself, then its primary language: `pt-br` then `pt`. */
export function languageCandidates(lang: string): string[] {
  const primary = lang.split('-')[0];
  return primary === lang ? [lang] : [lang, primary];
}
