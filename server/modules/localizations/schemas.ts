import { z } from 'zod';
import { localizationSummarySchema } from '../bootstrap/schemas.js';

export const changeLocaleBody = z.object({ locale: z.string().trim().min(1).max(16) });

export const changeLocaleResponse = z.object({
  locale: localizationSummarySchema.extend({ lines: z.record(z.string(), z.string()) }),
});

export const VALUE_LISTS = ['localizations', 'countries', 'timezones'] as const;

export const valueListsParams = z.object({
  names: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(VALUE_LISTS)).min(1)),
});

export const valueListsResponse = z.object({
  localizations: z.array(localizationSummarySchema).optional(),
  countries: z.array(z.object({ code: z.string(), name: z.string() })).optional(),
  timezones: z.record(z.string(), z.array(z.object({ value: z.string(), text: z.string() }))).optional(),
});
