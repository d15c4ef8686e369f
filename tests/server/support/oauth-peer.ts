import { OAuth2Server } from 'oauth2-mock-server';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { TestClient } from './client.js';
import { servicesOf } from './services-handle.js';

export interface PopupMessage {
  type: string;
  status: string;
  callbackData: Record<string, unknown> & { message?: string; email?: string; bootstrapData?: { user: { id: number; email: string } | null } };
}

/** The message the popup page posts to its opener (spec §4 "Social login"). */
export function popupMessage(html: string): PopupMessage {
  const match = html.match(/var m=(\{.*?\});if\(window\.opener\)/s);
  if (!match) throw new Error(`no social-auth message in: ${html.slice(0, 300)}`);
  return JSON.parse(match[1]!) as PopupMessage;
}

/** A person at the provider: what its id_token (Google) and profile endpoint (Facebook) say. */
export const newClaims = (): Record<string, unknown> => ({
  sub: `g-${Math.random()}`,
  email: `person${Math.random().toString(36).slice(2, 7)}@example.com`,
  email_verified: true,
  given_name: 'Pat',
  family_name: 'Doe',
  name: 'Pat Doe',
});

/**
 * A real OAuth 2 / OpenID Connect provider on 127.0.0.1 (oauth2-mock-server),
 * set up as the app's Google (discovery, id_token) and Facebook (plain OAuth 2,
 * profile endpoint). `claims` is who signs in next.
 */
export async function startOAuthPeer(app: FastifyInstance) {
  const provider = new OAuth2Server();
  await provider.issuer.keys.generate('RS256');
  await provider.start(0, '127.0.0.1');
  const peer = {
    claims: newClaims(),
    stop: () => provider.stop(),
    /** Opens the popup URL, lets the provider authorize, and follows its redirect back to our callback. */
    async runPopup(client: TestClient, path: string): Promise<PopupMessage> {
      const start = await client.get(path);
      if (start.statusCode !== 302) return popupMessage(start.body);
      const authorize = await fetch(start.headers.location as string, { redirect: 'manual' });
      const back = new URL(authorize.headers.get('location')!);
      const callback = await client.get(back.pathname + back.search);
      expect(callback.headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'sha256-/);
      return popupMessage(callback.body);
    },
  };
  provider.service.on('beforeTokenSigning', (token) => {
    Object.assign(token.payload, peer.claims);
  });
  provider.service.on('beforeUserinfo', (userinfo) => {
    const { claims } = peer;
    userinfo.body = { id: claims.sub, name: claims.name, email: claims.email, first_name: claims.given_name, last_name: claims.family_name };
  });
  const issuer = provider.issuer.url!;
  await servicesOf(app).settings.set({
    'social.google.enable': true,
    'social.google.client_id': 'drive-client',
    'social.google.client_secret': 'drive-secret',
    'social.google.issuer': issuer,
    'social.facebook.enable': true,
    'social.facebook.client_id': 'fb-client',
    'social.facebook.client_secret': 'fb-secret',
    'social.facebook.authorization_endpoint': `${issuer}/authorize`,
    'social.facebook.token_endpoint': `${issuer}/token`,
    'social.facebook.userinfo_endpoint': `${issuer}/userinfo`,
  });
  return peer;
}

export type OAuthPeer = Awaited<ReturnType<typeof startOAuthPeer>>;
