import { z } from 'zod';

/**
 * Validation messages in the product's voice ("The email field is required.").
 * Zod does not know the field's name when it builds a message, so messages
 * carry `:attribute`, which the error handler fills in from the issue's path.
 */
type Issue = z.core.$ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

function sizeMessage(issue: Issue, direction: 'min' | 'max'): string {
  const limit = Number(direction === 'min' ? (issue as { minimum?: unknown }).minimum : (issue as { maximum?: unknown }).maximum);
  const origin = (issue as { origin?: string }).origin;
  const verb = direction === 'min' ? 'at least' : 'not be greater than';
  if (origin === 'string') {
    if (direction === 'min' && limit === 1) return 'The :attribute field is required.';
    return `The :attribute field must ${direction === 'min' ? 'be at least' : 'not be longer than'} ${limit} characters.`;
  }
  if (origin === 'array' || origin === 'set') return `The :attribute field must have ${verb} ${limit} items.`;
  return `The :attribute field must ${direction === 'min' ? 'be at least' : 'not be greater than'} ${limit}.`;
}

export function productMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'The :attribute field is required.';
      return `The :attribute field must be ${TYPE_NAMES[issue.expected] ?? issue.expected}.`;
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
  const last = field.split('.').filter((p) => !/^\d+$/.test(p)).pop() ?? field;
  return last.replace(/_/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
