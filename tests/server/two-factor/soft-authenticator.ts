import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());
const u32 = (n: number) => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
};
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** Flags of authenticator data: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

/**
 * A software passkey (ES256, "none" attestation), for server tests of whole
 * WebAuthn ceremonies: it answers the options the server sends as a browser
 * with a platform authenticator would, user verification included.
 */
export class SoftAuthenticator {
  readonly credentialId = new Uint8Array(createHash('sha256').update(String(Math.random())).digest()).slice(0, 16);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;
  userHandle: string | null = null;

  constructor(private readonly origin: string) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' }) as { x: string; y: string };
    this.publicJwk = { x: jwk.x, y: jwk.y };
  }

  get id(): string {
    return b64(this.credentialId);
  }

  /** navigator.credentials.create(): the registration response JSON for these options. */
  create(options: { challenge: string; rp: { id: string }; user: { id: string } }, { userVerified = true } = {}) {
    this.userHandle = options.user.id;
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(this.publicJwk.x, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(this.publicJwk.y, 'base64url'))],
    ]);
    const idLength = new Uint8Array([this.credentialId.length >> 8, this.credentialId.length & 0xff]);
    const authData = concat(
      sha(options.rp.id),
      new Uint8Array([UP | (userVerified ? UV : 0) | AT]),
      u32(this.counter),
      new Uint8Array(16),
      idLength,
      this.credentialId,
      isoCBOR.encode(cose),
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: this.origin, crossOrigin: false });
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: { clientDataJSON: b64(Buffer.from(clientDataJSON)), attestationObject: b64(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get(): an assertion for these options, signed with the next counter. */
  get(options: { challenge: string; rpId: string }, { userVerified = true, origin = this.origin } = {}) {
    this.counter += 1;
    const authenticatorData = concat(sha(options.rpId), new Uint8Array([UP | (userVerified ? UV : 0)]), u32(this.counter));
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const signature = sign('sha256', concat(authenticatorData, sha(clientDataJSON)), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authenticatorData),
        signature: b64(signature),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
