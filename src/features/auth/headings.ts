// Spec §2: which heading the sign-in and registration screens show. Returns
// the line key; the screen translates it with the site name.

export const LOGIN_HEADING = 'Sign in to your account';
export const LOGIN_WORKSPACE_HEADING = 'To join your team on :siteName, login to your account';
export const REGISTER_HEADING = 'Create a new account';
export const REGISTER_WORKSPACE_HEADING = 'To join your team on :siteName, create an account';
export const REGISTER_PRICING_HEADING = "First, let's create your account";

export function isWorkspacePath(pathname: string): boolean {
  return pathname.includes('workspace');
}

export function loginHeading(pathname: string): string {
  return isWorkspacePath(pathname) ? LOGIN_WORKSPACE_HEADING : LOGIN_HEADING;
}

export function registerHeading(pathname: string, search: URLSearchParams): string {
  if (isWorkspacePath(pathname)) return REGISTER_WORKSPACE_HEADING;
  if (search.get('redirectFrom') === 'pricing') return REGISTER_PRICING_HEADING;
  return REGISTER_HEADING;
}
