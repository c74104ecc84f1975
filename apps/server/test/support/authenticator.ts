import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
}

/**
 * A software WebAuthn authenticator built on node:crypto: one ES256 (P-256) credential, "none"
 * attestation, user present and verified. It answers navigator.credentials.create / get the way a
 * browser hands them to @simplewebauthn/browser's callers (the JSON encoding), for `origin`.
 */
export function softwareAuthenticator(origin: string) {
  const credentialId = randomBytes(32);
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  let counter = 0;

  const coseKey = (key: KeyObject) => {
    const jwk = key.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
  };

  const clientData = (type: string, challenge: string, at = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: at, crossOrigin: false }));

  const authData = (rpId: string, flags: number, attested?: Uint8Array) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  };

  return {
    credentialId: b64url(credentialId),

    /** The answer to navigator.credentials.create(options). */
    register(options: CreationOptions, overrides: { origin?: string } = {}) {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, credentialId, coseKey(publicKey)]);
      // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
      const data = authData(options.rp.id ?? new URL(origin).hostname, 0x45, attested);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(data)],
        ]) as never,
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, overrides.origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },

    /** The answer to navigator.credentials.get(options): a signature over authData and the client data. */
    authenticate(options: RequestOptions, overrides: { origin?: string } = {}) {
      counter += 1;
      const data = authData(options.rpId ?? new URL(origin).hostname, 0x05);
      const json = clientData('webauthn.get', options.challenge, overrides.origin);
      const signature = sign('sha256', Buffer.concat([data, sha256(json)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(json),
          authenticatorData: b64url(data),
          signature: b64url(signature),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
