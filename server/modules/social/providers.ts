import * as oidc from 'openid-client';
import type { SettingsMap } from '../settings/service.js';

export const SOCIAL_SERVICES = ['google', 'facebook'] as const;
export type SocialService = (typeof SOCIAL_SERVICES)[number];

export interface SocialProfile {
  id: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  name: string | null;
}

export interface Provider {
  service: SocialService;
  config: oidc.Configuration;
  scope: string;
  /** OpenID Connect providers sign an id_token (and take a nonce); plain OAuth 2 ones answer a profile endpoint. */
  oidc: boolean;
  userinfoUrl: URL | null;
}

const str = (settings: SettingsMap, key: string) => {
  const value = settings[key];
  return typeof value === 'string' ? value : '';
};

export function isEnabled(settings: SettingsMap, service: SocialService): boolean {
  return settings[`social.${service}.enable`] === true && str(settings, `social.${service}.client_id`) !== '';
}

/**
 * Discovery is a network round trip and providers' metadata rarely changes, so
 * each app keeps what it discovered. Per app rather than per process: two apps
 * in one process (tests, a restart in place) must not see each other's providers.
 */
export type DiscoveryCache = Map<string, Promise<oidc.Configuration>>;

/**
 * The provider's client configuration, from settings so that an admin (or a
 * test pointing at a local OAuth server) can change the endpoints.
 */
export async function loadProvider(settings: SettingsMap, service: SocialService, discovered: DiscoveryCache): Promise<Provider> {
  const clientId = str(settings, `social.${service}.client_id`);
  const secret = str(settings, `social.${service}.client_secret`);
  // Plain http is only ever a local test or development provider.
  const insecure = (url: string) => url.startsWith('http://');

  if (service === 'google') {
    const issuer = str(settings, 'social.google.issuer');
    const key = `${issuer}|${clientId}|${secret}`;
    let pending = discovered.get(key);
    if (!pending) {
      pending = oidc.discovery(new URL(issuer), clientId, secret, undefined, insecure(issuer) ? { execute: [oidc.allowInsecureRequests] } : {});
      discovered.set(key, pending);
      pending.catch(() => discovered.delete(key));
    }
    return { service, config: await pending, scope: 'openid email profile', oidc: true, userinfoUrl: null };
  }

  const authorization = str(settings, 'social.facebook.authorization_endpoint');
  const token = str(settings, 'social.facebook.token_endpoint');
  const userinfo = str(settings, 'social.facebook.userinfo_endpoint');
  const config = new oidc.Configuration(
    { issuer: new URL(authorization).origin, authorization_endpoint: authorization, token_endpoint: token },
    clientId,
    secret,
  );
  if (insecure(token)) oidc.allowInsecureRequests(config);
  return { service, config, scope: 'email public_profile', oidc: false, userinfoUrl: new URL(userinfo) };
}

export function profileFromClaims(claims: Record<string, unknown>): SocialProfile {
  const text = (key: string) => (typeof claims[key] === 'string' && claims[key] !== '' ? (claims[key] as string) : null);
  const id = text('sub') ?? (claims.id !== undefined ? String(claims.id) : null);
  if (!id) throw new Error('The provider did not say who you are.');
  return {
    id,
    email: text('email')?.toLowerCase() ?? null,
    // Google says whether it checked the address; Facebook only returns confirmed ones.
    emailVerified: claims.email_verified === true || (claims.email_verified === undefined && text('email') !== null),
    firstName: text('given_name') ?? text('first_name'),
    lastName: text('family_name') ?? text('last_name'),
    name: text('name'),
  };
}
