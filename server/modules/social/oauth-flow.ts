import * as oidc from 'openid-client';
import type { Message } from '../../lib/errors.js';
import { signValue, verifySignedValue } from '../../lib/tokens.js';
import type { SettingsService } from '../settings/service.js';
import { isEnabled, loadProvider, profileFromClaims, type DiscoveryCache, type SocialProfile, type SocialService } from './providers.js';

/** How long the popup may take at the provider (state cookie) and at the password prompt (pending link). */
export const FLOW_LIFETIME_MS = 10 * 60 * 1000;
const GENERIC_ERROR = 'An error occurred. Please try again later';

export type FlowMode = 'login' | 'connect';

interface OAuthState {
  state: string;
  verifier: string;
  nonce: string | null;
  mode: FlowMode;
  service: SocialService;
}

/** The flow stopped: `reason` is for the popup, `cause` (when set) for the log. */
export class OAuthFlowError extends Error {
  constructor(
    readonly reason: Message,
    options: { cause?: unknown } = {},
  ) {
    super(typeof reason === 'string' ? reason : reason.template, options);
    this.name = 'OAuthFlowError';
  }
}

/**
 * The authorization code flow with a provider (PKCE, state, and a nonce for
 * OpenID Connect): where to send the popup, and, when it comes back, who the
 * provider says the user is. What it hands the browser to keep is signed with
 * the app key; the routes only carry it in cookies.
 */
export class OAuthFlow {
  private readonly discovered: DiscoveryCache = new Map();

  constructor(
    private readonly settings: Pick<SettingsService, 'all' | 'appKey'>,
    private readonly appUrl: string,
  ) {}

  private callbackUrl(service: SocialService): string {
    return `${this.appUrl}/secure/auth/social/${service}/callback`;
  }

  async seal(value: unknown): Promise<string> {
    return signValue(await this.settings.appKey(), JSON.stringify(value), FLOW_LIFETIME_MS);
  }

  async open<T>(sealed: string | undefined): Promise<T | null> {
    const raw = verifySignedValue(await this.settings.appKey(), sealed);
    return raw ? (JSON.parse(raw) as T) : null;
  }

  /** The provider's authorization URL, and the sealed state that must come back with the popup. */
  async begin(service: SocialService, mode: FlowMode): Promise<{ url: string; state: string }> {
    const all = await this.settings.all({ includePrivate: true });
    if (!isEnabled(all, service)) throw new OAuthFlowError('This sign-in method is not enabled.');
    try {
      const provider = await loadProvider(all, service, this.discovered);
      const verifier = oidc.randomPKCECodeVerifier();
      const flow: OAuthState = { state: oidc.randomState(), verifier, nonce: provider.oidc ? oidc.randomNonce() : null, mode, service };
      const url = oidc.buildAuthorizationUrl(provider.config, {
        redirect_uri: this.callbackUrl(service),
        scope: provider.scope,
        state: flow.state,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        ...(flow.nonce ? { nonce: flow.nonce } : {}),
      });
      return { url: url.href, state: await this.seal(flow) };
    } catch (error) {
      throw new OAuthFlowError(GENERIC_ERROR, { cause: error });
    }
  }

  /**
   * The provider's answer at `callbackPath` (path and query as requested): the
   * code is exchanged only for a state this browser was given, then the
   * profile is read from the id_token (OpenID Connect) or the profile endpoint.
   */
  async finish(service: SocialService, sealedState: string | undefined, callbackPath: string): Promise<{ mode: FlowMode; profile: SocialProfile }> {
    const flow = await this.open<OAuthState>(sealedState);
    const currentUrl = new URL(callbackPath, this.appUrl);
    const state = currentUrl.searchParams.get('state');
    // A callback this browser did not start (or a replayed one) is refused before anything is exchanged.
    if (!flow || flow.service !== service || !state || state !== flow.state) {
      throw new OAuthFlowError('This sign-in attempt is invalid or has expired. Please try again.');
    }
    if (currentUrl.searchParams.get('error')) throw new OAuthFlowError(GENERIC_ERROR);
    try {
      const provider = await loadProvider(await this.settings.all({ includePrivate: true }), service, this.discovered);
      const tokens = await oidc.authorizationCodeGrant(provider.config, currentUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        ...(flow.nonce ? { expectedNonce: flow.nonce } : {}),
        idTokenExpected: provider.oidc,
      });
      if (provider.oidc) return { mode: flow.mode, profile: profileFromClaims({ ...(tokens.claims() ?? {}) }) };
      const response = await oidc.fetchProtectedResource(provider.config, tokens.access_token, provider.userinfoUrl!, 'GET');
      return { mode: flow.mode, profile: profileFromClaims((await response.json()) as Record<string, unknown>) };
    } catch (error) {
      throw new OAuthFlowError(GENERIC_ERROR, { cause: error });
    }
  }
}
