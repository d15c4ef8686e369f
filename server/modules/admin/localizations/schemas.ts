import { z } from 'zod';

export const LANGUAGE_CODE_INVALID = 'Enter a language code such as de or pt-BR.';

export const localizationIdParam = z.object({ id: z.coerce.number().int().positive() });

const name = z.string().trim().min(1).max(100);
export const createLocalizationBody = z.object({
  language: z
    .string()
    .trim()
    .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/, LANGUAGE_CODE_INVALID),
  name,
});
export const updateLocalizationBody = z.object({ name, default: z.literal(true).optional().describe('Make this the site default') });

const localization = z.object({
  id: z.number().int(),
  language: z.string(),
  name: z.string(),
  default: z.boolean(),
  translated: z.number().int().describe('Lines with text in this language'),
  total: z.number().int().describe('Every line there is'),
});
export const localizationList = z.object({ localizations: z.array(localization) });
export const localizationResponse = z.object({ localization });

export const linesQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(200).default(50),
  query: z.string().trim().max(200).optional(),
  untranslated: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});

const line = z.object({ key: z.string(), source: z.string(), value: z.string().nullable(), translated: z.boolean(), overridden: z.boolean() });
export const linesResponse = z.object({
  localization,
  pagination: z.object({ data: z.array(line), current_page: z.number(), per_page: z.number(), total: z.number(), last_page: z.number() }),
});

export const updateLinesBody = z.object({
  lines: z
    .record(z.string().max(2000), z.string().max(10_000).nullable())
    .describe('Line → text; null or empty brings back the shipped text')
    .refine((lines) => Object.keys(lines).length <= 5000, 'Too many lines at once.'),
});
export const updateLinesResponse = z.object({ changed: z.number().int() });

export const exportResponse = z.object({ language: z.string(), name: z.string(), lines: z.record(z.string(), z.string()) });

export const importBody = z.object({
  lines: z
    .record(z.string().max(2000), z.unknown())
    .describe('An exported file’s lines; values must be text')
    .refine((lines) => Object.keys(lines).length <= 10_000, 'Too many lines at once.'),
});
export const importResponse = z.object({ imported: z.number().int(), unknown: z.array(z.string()).describe('Keys that are not lines: skipped') });
