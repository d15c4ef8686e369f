import { z } from 'zod';

/**
 * Validation messages in the product's voice ("The email field is required.").
 * Zod does not know the field's name when it builds a message, so messages
 * carry `:attribute`, which the error handler fills in from the issue's path.
 */
type Issue = z.core.$ZodRawIssue;

/** How a type is named in a message; the name is itself a line ("a string" → "bir metin"). */
export const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

/**
 * Templates, not finished sentences: `:attribute`, `:min`, `:max` and `:type`
 * are filled in (and the template translated) by the error handler from the
 * issue's path and parameters, so the same wording can be answered in Turkish.
 */
function sizeMessage(issue: Issue, direction: 'min' | 'max'): string {
  const limit = Number(direction === 'min' ? (issue as { minimum?: unknown }).minimum : (issue as { maximum?: unknown }).maximum);
  const origin = (issue as { origin?: string }).origin;
  if (origin === 'string') {
    if (direction === 'min' && limit === 1) return 'The :attribute field is required.';
    return direction === 'min' ? 'The :attribute field must be at least :min characters.' : 'The :attribute field must not be longer than :max characters.';
  }
  if (origin === 'array' || origin === 'set') {
    return direction === 'min' ? 'The :attribute field must have at least :min items.' : 'The :attribute field must not have more than :max items.';
  }
  return direction === 'min' ? 'The :attribute field must be at least :min.' : 'The :attribute field must not be greater than :max.';
}

export function productMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'The :attribute field is required.';
      return 'The :attribute field must be :type.';
    case 'too_small':
      return sizeMessage(issue, 'min');
    case 'too_big':
      return sizeMessage(issue, 'max');
    case 'invalid_format':
      if (issue.format === 'email') return 'The :attribute field must be a valid email address.';
      if (issue.format === 'url') return 'The :attribute field must be a valid URL.';
      return 'The :attribute field format is invalid.';
    case 'invalid_value':
      return 'The selected :attribute is invalid.';
    default:
      return undefined;
  }
}

let installed = false;
export function installZodMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: productMessage });
}

/** "/first_name" → "first_name" (the key the client maps onto a form field). */
export function fieldFromPath(instancePath: string): string {
  return instancePath.replace(/^\//, '').split('/').join('.') || 'body';
}

/** "first_name" → "first name", "items.0.name" → "name". */
export function attributeLabel(field: string): string {
  const last =
    field
      .split('.')
      .filter((p) => !/^\d+$/.test(p))
      .pop() ?? field;
  return last
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
}
