// The shell's and small features' query keys. A feature with many keys owns a
// factory of its own (the drive: features/drive/api/keys.ts); no key is
// defined twice.
export const queryKeys = {
  bootstrap: ['bootstrap-data'] as const,
  accountUser: ['users', 'me', 'account'] as const,
  accessTokens: ['access-tokens'] as const,
  twoFactor: ['users', 'me', 'two-factor'] as const,
  passkeys: ['users', 'me', 'passkeys'] as const,
  valueLists: (names: string) => ['value-lists', names] as const,
};
