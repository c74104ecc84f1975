/**
 * The audit trail's Merkle tree, as RFC 6962 §2.1 defines it (the tree of Certificate Transparency,
 * Trillian and Sigstore Rekor): leaf hash = SHA-256(0x00 || leaf), node hash = SHA-256(0x01 || left ||
 * right), and the Merkle Tree Hash of n leaves splits them at the largest power of two below n.
 *
 * The tree is grown a leaf at a time from its right edge (the "frontier" or compact range: the roots
 * of the perfect subtrees that make up the first n leaves, largest first, one per bit of n), so a
 * batch of new leaves costs O(log n) each and no older leaf is read again.
 */
import { createHash } from 'node:crypto';

export const leafHash = (leaf: Buffer | string): Buffer =>
  createHash('sha256')
    .update(Buffer.from([0]))
    .update(typeof leaf === 'string' ? Buffer.from(leaf, 'utf8') : leaf)
    .digest();

export const nodeHash = (left: Buffer, right: Buffer): Buffer =>
  createHash('sha256')
    .update(Buffer.from([1]))
    .update(left)
    .update(right)
    .digest();

/** The Merkle Tree Hash of no leaf: SHA-256 of the empty string. */
export const EMPTY_ROOT = createHash('sha256').digest();

/** The right edge of a tree of `size` leaves; grows in place with `append`. */
export class MerkleFrontier {
  private constructor(
    private size_: number,
    private readonly hashes: Buffer[],
  ) {}

  static empty(): MerkleFrontier {
    return new MerkleFrontier(0, []);
  }

  /** From a stored frontier (hex, largest subtree first) of a tree of `size` leaves. */
  static of(size: number, hex: readonly string[]): MerkleFrontier {
    let bits = 0;
    for (let n = size; n > 0; n = Math.floor(n / 2)) bits += n % 2;
    if (bits !== hex.length)
      throw new Error(`a frontier of ${size} leaves has ${bits} hashes, not ${hex.length}`);
    return new MerkleFrontier(
      size,
      hex.map((h) => Buffer.from(h, 'hex')),
    );
  }

  get size(): number {
    return this.size_;
  }

  clone(): MerkleFrontier {
    return new MerkleFrontier(this.size_, [...this.hashes]);
  }

  /** Adds the leaf with this leaf hash (already `leafHash`ed) as leaf number `size`. */
  append(leaf: Buffer): void {
    let hash = leaf;
    // Each trailing 1 bit of the old size is a perfect subtree of the new one's size: merge it.
    for (let n = this.size_; n % 2 === 1; n = (n - 1) / 2) hash = nodeHash(this.hashes.pop()!, hash);
    this.hashes.push(hash);
    this.size_ += 1;
  }

  /** The Merkle Tree Hash of the leaves so far (RFC 6962 MTH). */
  root(): Buffer {
    if (this.hashes.length === 0) return EMPTY_ROOT;
    let root = this.hashes[this.hashes.length - 1]!;
    for (let i = this.hashes.length - 2; i >= 0; i--) root = nodeHash(this.hashes[i]!, root);
    return root;
  }

  toJSON(): string[] {
    return this.hashes.map((h) => h.toString('hex'));
  }
}
