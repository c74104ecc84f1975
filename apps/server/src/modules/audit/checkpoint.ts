/**
 * Signed checkpoints of the audit trail's Merkle tree, in the formats the transparency logs share:
 *
 *   - the body is a C2SP tlog-checkpoint (https://c2sp.org/tlog-checkpoint): the origin line (the
 *     log's name: APP_URL's host + "/audit"), the tree size in decimal, the root hash in base64;
 *   - it is signed as a C2SP signed note (https://c2sp.org/signed-note) with Ed25519: a blank line,
 *     then "— <key name> <base64(4-byte key id || signature)>"; the key id is the first 4 bytes of
 *     SHA-256(key name || "\n" || 0x01 || public key), and the verifier key is written
 *     "<key name>+<key id, 8 hex digits>+<base64(0x01 || public key)>".
 *
 * The signing key is derived from APP_KEY (HKDF-SHA-256, info AUDIT_KEY_INFO): whoever holds APP_KEY
 * can sign, and the verifier key can be given to anyone. The signature proves something only when
 * APP_KEY lives outside the database (docs/security.md).
 */
import { createHash, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { ed25519FromAppKey } from '../../security/crypto.ts';

export const AUDIT_KEY_INFO = 'footprint audit checkpoint v1';
/** Ed25519's signature type byte in signed notes. */
const ED25519 = 0x01;
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The log's origin line: APP_URL's host (with its port, if any) and "/audit". */
export const auditOrigin = (appUrl: string): string => `${new URL(appUrl).host}/audit`;

export interface NoteVerifier {
  name: string;
  keyId: Buffer;
  publicKey: KeyObject;
  /** "<name>+<hex key id>+<base64(0x01 || public key)>" */
  vkey: string;
}

export interface NoteSigner extends NoteVerifier {
  privateKey: KeyObject;
}

const keyIdOf = (name: string, rawPublic: Buffer) =>
  createHash('sha256')
    .update(Buffer.concat([Buffer.from(`${name}\n`, 'utf8'), Buffer.from([ED25519]), rawPublic]))
    .digest()
    .subarray(0, 4);

const validName = (name: string) => name.length > 0 && !/[\s+]/u.test(name);

/** The checkpoint signer for this deployment: an Ed25519 key derived from APP_KEY. */
export function checkpointSigner(appKey: string, origin: string): NoteSigner {
  if (!validName(origin)) throw new Error(`the origin ${JSON.stringify(origin)} cannot name a note key`);
  const { privateKey, publicKey } = ed25519FromAppKey(appKey, AUDIT_KEY_INFO);
  const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(SPKI_ED25519_PREFIX.length);
  const keyId = keyIdOf(origin, raw);
  const vkey = `${origin}+${keyId.toString('hex')}+${Buffer.concat([Buffer.from([ED25519]), raw]).toString('base64')}`;
  return { name: origin, keyId, publicKey, privateKey, vkey };
}

/** A verifier key as printed by `audit:checkpoint --key`; throws on anything else. */
export function parseVerifierKey(vkey: string): NoteVerifier {
  const parts = vkey.trim().split('+');
  const [name, hexId, b64] = parts;
  if (parts.length !== 3 || !name || !validName(name) || !/^[0-9a-f]{8}$/.test(hexId ?? '')) {
    throw new Error('a verifier key is <name>+<8 hex digits>+<base64 key>');
  }
  const key = Buffer.from(b64 ?? '', 'base64');
  if (key.length !== 33 || key[0] !== ED25519) throw new Error('the verifier key is not an Ed25519 key');
  const raw = key.subarray(1);
  const keyId = Buffer.from(hexId!, 'hex');
  if (!keyId.equals(keyIdOf(name, raw)))
    throw new Error('the verifier key id does not match its name and key');
  const publicKey = createPublicKey({
    key: Buffer.concat([SPKI_ED25519_PREFIX, raw]),
    format: 'der',
    type: 'spki',
  });
  return { name, keyId, publicKey, vkey: vkey.trim() };
}

export interface Checkpoint {
  origin: string;
  treeSize: number;
  rootHash: Buffer;
}

export const checkpointBody = (c: Checkpoint): string =>
  `${c.origin}\n${c.treeSize}\n${c.rootHash.toString('base64')}\n`;

/** The signed note of a checkpoint: its body, a blank line and one signature line. */
export function signCheckpoint(c: Checkpoint, signer: NoteSigner): string {
  const body = checkpointBody(c);
  const signature = sign(null, Buffer.from(body, 'utf8'), signer.privateKey);
  return `${body}\n— ${signer.name} ${Buffer.concat([signer.keyId, signature]).toString('base64')}\n`;
}

/**
 * The signed notes of a text (one note, or several one after another, as AUDIT_CHECKPOINT_FILE
 * collects them): each is its body up to a blank line and the signature lines after it.
 */
export function splitNotes(text: string): string[] {
  const notes: string[] = [];
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  let i = 0;
  while (i < lines.length) {
    while (i < lines.length && lines[i] === '') i++;
    if (i >= lines.length) break;
    const body: string[] = [];
    while (i < lines.length && lines[i] !== '') body.push(lines[i++]!);
    i++; // the blank line
    const signatures: string[] = [];
    while (i < lines.length && lines[i]!.startsWith('— ')) signatures.push(lines[i++]!);
    notes.push(`${body.join('\n')}\n\n${signatures.map((s) => `${s}\n`).join('')}`);
  }
  return notes;
}

/**
 * Opens a signed checkpoint: checks that a signature line of the verifier's key verifies over the
 * body, and reads the body. Throws a sentence saying what is wrong.
 */
export function openCheckpoint(note: string, verifier: NoteVerifier): Checkpoint {
  const split = note.indexOf('\n\n');
  if (split < 0) throw new Error('not a signed note (no blank line before the signatures)');
  const body = note.slice(0, split + 1);
  const signatures = note
    .slice(split + 2)
    .split('\n')
    .filter(Boolean);
  let signed = false;
  for (const line of signatures) {
    const match = /^— (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!match) throw new Error(`a malformed signature line: ${JSON.stringify(line)}`);
    const blob = Buffer.from(match[2]!, 'base64');
    if (match[1] !== verifier.name || blob.length < 5 || !blob.subarray(0, 4).equals(verifier.keyId))
      continue;
    if (!verify(null, Buffer.from(body, 'utf8'), verifier.publicKey, blob.subarray(4))) {
      throw new Error(`the signature of ${verifier.name} does not verify: the note was changed`);
    }
    signed = true;
  }
  if (!signed) throw new Error(`no signature by the key ${verifier.vkey}`);
  const [origin, size, root] = body.slice(0, -1).split('\n');
  const rootHash = Buffer.from(root ?? '', 'base64');
  if (!origin || !/^(0|[1-9][0-9]*)$/.test(size ?? '') || rootHash.length !== 32) {
    throw new Error('the note is not a checkpoint (origin, tree size, base64 root hash)');
  }
  return { origin, treeSize: Number(size), rootHash };
}
