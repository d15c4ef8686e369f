import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/http';
import { queryKeys } from '../../api/query-keys';

export type ValueListName = 'localizations' | 'countries' | 'timezones';

/** Shared lookups (spec §7 "value-lists"): one cached query per name set. */
export function useValueLists(names: readonly ValueListName[]) {
  const joined = [...names].sort().join(',');
  return useQuery({
    queryKey: queryKeys.valueLists(joined),
    queryFn: ({ signal }) => api.get('value-lists/{names}', { path: { names: joined }, signal }),
    // The lists change with a release, not during a session.
    staleTime: 60 * 60 * 1000,
  });
}
