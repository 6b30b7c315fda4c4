import { z } from 'zod';

// Model settings of a knowledge base's preview (and the defaults of its question answering).

export interface PreviewSettings {
  model: string;
  max_tokens: number;
  temperature: number;
  top_k: number;
  context: string;
}

export const settingRanges = {
  model: z.string().trim().min(1, 'must not be empty').max(200),
  max_tokens: z.number().int('must be a whole number').min(1, 'must be 1 to 8192').max(8192, 'must be 1 to 8192'),
  temperature: z.number().min(0, 'must be 0 to 2').max(2, 'must be 0 to 2'),
  top_k: z.number().int('must be a whole number').min(1, 'must be 1 to 50').max(50, 'must be 1 to 50'),
  context: z.string().max(20_000, 'must be at most 20000 characters'),
};

/** A partial update of the settings; absent fields keep their value. */
export const previewSettingsPatch = z
  .object({
    model: settingRanges.model.optional(),
    max_tokens: settingRanges.max_tokens.optional(),
    temperature: settingRanges.temperature.optional(),
    top_k: settingRanges.top_k.optional(),
    context: settingRanges.context.optional(),
  })
  .strict();

export function defaultPreviewSettings(model: string): PreviewSettings {
  return { model, max_tokens: 256, temperature: 0.7, top_k: 4, context: '' };
}

/** Stored settings over the defaults, so records written before a setting existed still read whole. */
export function effectiveSettings(stored: unknown, defaultModel: string): PreviewSettings {
  const saved = (stored && typeof stored === 'object' ? stored : {}) as Partial<PreviewSettings>;
  const defaults = defaultPreviewSettings(defaultModel);
  return {
    model: typeof saved.model === 'string' && saved.model ? saved.model : defaults.model,
    max_tokens: typeof saved.max_tokens === 'number' ? saved.max_tokens : defaults.max_tokens,
    temperature: typeof saved.temperature === 'number' ? saved.temperature : defaults.temperature,
    top_k: typeof saved.top_k === 'number' ? saved.top_k : defaults.top_k,
    context: typeof saved.context === 'string' ? saved.context : defaults.context,
  };
}
