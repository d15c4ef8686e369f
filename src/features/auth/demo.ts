import type { Bootstrap, DemoCredentials } from '../../api/bootstrap-types';

/**
 * Spec §2: in demo mode the login form starts with the server's demo
 * credentials. Read defensively: a cached bootstrap from an older server has none.
 */
export function demoCredentials(data: Pick<Bootstrap, 'site' | 'demo'>): DemoCredentials | null {
  if (!data.site.demo) return null;
  const credentials = data.demo?.credentials;
  if (!credentials || typeof credentials.email !== 'string' || typeof credentials.password !== 'string') return null;
  return { email: credentials.email, password: credentials.password };
}
