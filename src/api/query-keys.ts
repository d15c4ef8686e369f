// Every query key in one place, so invalidation and persistence agree.
export const queryKeys = {
  bootstrap: ['bootstrap-data'] as const,
  accountUser: ['users', 'me', 'account'] as const,
  accessTokens: ['access-tokens'] as const,
  valueLists: (names: string) => ['value-lists', names] as const,
  /** Prefix of every drive query (listings, tree, paths): refreshed when an upload lands. */
  drive: ['drive'] as const,
  /** GET user/space-usage, the storage summary. */
  spaceUsage: ['user', 'space-usage'] as const,
};
