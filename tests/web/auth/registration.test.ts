import { describe, expect, it } from 'vitest';
import type { Policy } from '../../../src/api/bootstrap-types';
import { formatMessage } from '../../../src/i18n/format-message';
import { buildRegisterPayload, emptyRegisterForm, registerFieldFor, registerSchema } from '../../../src/features/auth/registration';

const t = (key: string, values?: Record<string, unknown>) => formatMessage(key, values);
const policies: Policy[] = [
  { id: 'terms', label: 'Terms of Service', action: '/pages/terms', type: 'route' },
  { id: 'privacy', label: 'Privacy Policy', action: 'https://example.com/privacy', type: 'link' },
];

function filled(overrides: Partial<ReturnType<typeof emptyRegisterForm>> = {}) {
  return {
    ...emptyRegisterForm(policies),
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    password: 'correct-horse',
    password_confirmation: 'correct-horse',
    policies: { terms: true, privacy: true },
    ...overrides,
  };
}

describe('registration form', () => {
  it('sends one boolean per policy id next to the fixed fields', () => {
    const payload = buildRegisterPayload(filled({ city: ' Paris ' }), policies);
    expect(payload).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
      password: 'correct-horse',
      password_confirmation: 'correct-horse',
      address: null,
      city: 'Paris',
      country: null,
      zipcode: null,
      terms: true,
      privacy: true,
    });
  });

  it('starts with every policy unchecked', () => {
    expect(emptyRegisterForm(policies).policies).toEqual({ terms: false, privacy: false });
  });

  it('refuses a form where a policy is not accepted, naming that policy', () => {
    const result = registerSchema(policies, t).safeParse(filled({ policies: { terms: true, privacy: false } }));
    expect(result.success).toBe(false);
    const issues = result.error?.issues ?? [];
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toEqual(['policies', 'privacy']);
    expect(issues[0]?.message).toBe('You must accept the Privacy Policy.');
  });

  it('accepts a complete form with every policy accepted', () => {
    expect(registerSchema(policies, t).safeParse(filled()).success).toBe(true);
  });

  it('requires the names, a typed email, 8 characters and a matching confirmation', () => {
    const result = registerSchema(policies, t).safeParse(filled({ first_name: ' ', email: 'not-an-email', password: 'short', password_confirmation: 'other' }));
    const paths = (result.error?.issues ?? []).map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['first_name', 'email', 'password']));
  });

  it('maps server errors keyed by policy id onto the policy checkbox', () => {
    const mapField = registerFieldFor(policies);
    expect(mapField('terms')).toBe('policies.terms');
    expect(mapField('email')).toBe('email');
  });
});
