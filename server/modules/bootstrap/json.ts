import { z } from 'zod';
import { agreeingWithZod, compileSchema } from '../../lib/response-serializer.js';
import type { Bootstrap } from './service.js';
import { bootstrapResponseSchema } from './schemas.js';

const linesSchema = z.record(z.string(), z.string());

/**
 * `GET bootstrap-data`'s body, and the block written into served pages.
 *
 * The translation lines are 52 of its 58 KB (973 lines in English) and the
 * same for every caller of a language until something is written: the
 * bootstrap service keeps one lines object per data version and language, so
 * the object's identity says when its JSON is still good. They are checked and
 * serialised once per object; each request serialises only the rest (~6 KB)
 * and splices the lines in. Serialising all of it cost ~1.2 ms with zod's
 * encode and ~0.7 ms compiled; the rest alone costs ~0.07 ms.
 */
export class BootstrapJson {
  private readonly linesJson = new WeakMap<Record<string, string>, string>();
  private compiled: ((data: unknown) => string) | null = null;

  /** `checked` (tests, development): the answer must equal zod's encode of the whole, as every other route's. */
  constructor(private readonly checked: boolean) {}

  serialize(data: Bootstrap): string {
    const { language, lines } = data.i18n;
    const rest = this.serializer()({ data: { ...data, i18n: { language, lines: {} } } });
    // Exactly one place can hold this text: string values are escaped, so `"i18n":{…` can only be the structure itself.
    const marker = `"i18n":{"language":${JSON.stringify(language)},"lines":{}}`;
    const at = rest.indexOf(marker);
    if (at < 0 || rest.indexOf(marker, at + 1) >= 0) throw new Error('bootstrap-data: the serialised shape changed; the lines cannot be spliced in.');
    const json = `${rest.slice(0, at)}"i18n":{"language":${JSON.stringify(language)},"lines":${this.linesOf(lines)}}${rest.slice(at + marker.length)}`;
    return this.checked ? agreeingWithZod(bootstrapResponseSchema, { data }, json, 'bootstrap-data') : json;
  }

  private linesOf(lines: Record<string, string>): string {
    let json = this.linesJson.get(lines);
    if (json === undefined) {
      json = JSON.stringify(linesSchema.parse(lines));
      this.linesJson.set(lines, json);
    }
    return json;
  }

  private serializer() {
    this.compiled ??= compileSchema(bootstrapResponseSchema) ?? ((data) => JSON.stringify(bootstrapResponseSchema.encode(data as never)));
    return this.compiled;
  }
}
