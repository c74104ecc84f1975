// The audit trail's Merkle log: RFC 6962 hashing, C2SP signed checkpoints checked by a verifier
// written here from the specs, and the sealer under concurrent writers (a transaction that takes its
// id first and commits last among them) and two sealers at once, on PGlite and PostgreSQL.
import { createHash, createPublicKey, randomUUID, verify } from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import { auditCheckpoints, auditEvents } from '../../src/db/schema.ts';
import { CHAIN_COLUMNS, canonicalContent, type StoredChainRow } from '../../src/modules/audit/chain.ts';
import {
  auditOrigin,
  checkpointSigner,
  openCheckpoint,
  parseVerifierKey,
  signCheckpoint,
  splitNotes,
} from '../../src/modules/audit/checkpoint.ts';
import { EMPTY_ROOT, MerkleFrontier } from '../../src/modules/audit/merkle.ts';
import { createSealer } from '../../src/modules/audit/sealer.ts';
import { recordAudit } from '../../src/modules/audit/service.ts';
import { verifyTrail } from '../../src/modules/audit/verify.ts';
import { listOutbox, outboxMailer } from '../../src/modules/mail/mailer.ts';
import { createSettleWriter, type RepeatedSearch } from '../../src/modules/searches/settle.ts';
import { createUser } from '../support/app.ts';
import { createTestDatabase, databaseKind } from '../support/db.ts';

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();

/** RFC 6962 §2.1 written out recursively, independently of merkle.ts's frontier. */
function mth(leaves: Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return sha256(Buffer.from([0]), leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha256(Buffer.from([1]), mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const signer = checkpointSigner('test app key', auditOrigin('https://footprint.example.test:8443/'));

describe('the Merkle tree', () => {
  it('gives the RFC 6962 root for every size from 0 to 70, from a frontier carried over', () => {
    const leaves = Array.from({ length: 70 }, (_, i) => Buffer.from(`leaf ${i}`));
    let tree = MerkleFrontier.empty();
    expect(tree.root()).toEqual(EMPTY_ROOT);
    for (let n = 1; n <= leaves.length; n++) {
      tree.append(sha256(Buffer.from([0]), leaves[n - 1]!));
      expect(tree.root().toString('hex'), `size ${n}`).toBe(mth(leaves.slice(0, n)).toString('hex'));
      // As the sealer stores it and the next round reads it back.
      tree = MerkleFrontier.of(tree.size, tree.toJSON());
    }
    expect(() => MerkleFrontier.of(7, ['00'])).toThrow(/3 hashes/);
  });
});

/** A C2SP signed-note and tlog-checkpoint verifier written from the two specs, for the test only. */
function verifyC2sp(note: string, vkey: string) {
  const [name, hexId, key] = vkey.split('+');
  const raw = Buffer.from(key!, 'base64');
  expect(raw[0]).toBe(0x01); // Ed25519
  const id = sha256(Buffer.from(`${name}\n`), raw).subarray(0, 4);
  expect(id.toString('hex')).toBe(hexId);
  const publicKey = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: raw.subarray(1).toString('base64url') },
    format: 'jwk',
  });
  const cut = note.lastIndexOf('\n\n');
  const text = note.slice(0, cut + 1);
  const sigLines = note
    .slice(cut + 2)
    .trimEnd()
    .split('\n');
  expect(sigLines.length).toBeGreaterThan(0);
  const line = sigLines.find((l) => l.startsWith(`\u2014 ${name} `))!;
  const blob = Buffer.from(line.slice(`\u2014 ${name} `.length), 'base64');
  expect(blob.subarray(0, 4)).toEqual(id);
  const ok = verify(null, Buffer.from(text, 'utf8'), publicKey, blob.subarray(4));
  const [origin, size, root, ...extensions] = text.slice(0, -1).split('\n');
  return { ok, origin, size: Number(size), root: Buffer.from(root!, 'base64'), extensions };
}

describe('signed checkpoints', () => {
  it('are C2SP signed notes of tlog-checkpoint bodies that an independent verifier accepts', () => {
    const root = sha256(Buffer.from('root'));
    const note = signCheckpoint({ origin: signer.name, treeSize: 42, rootHash: root }, signer);
    expect(signer.name).toBe('footprint.example.test:8443/audit');
    expect(signer.vkey).toMatch(/^footprint\.example\.test:8443\/audit\+[0-9a-f]{8}\+[A-Za-z0-9+/]+=*$/);
    expect(note).toMatch(
      /^footprint\.example\.test:8443\/audit\n42\n[A-Za-z0-9+/]{43}=\n\n\u2014 \S+ \S+\n$/,
    );
    const opened = verifyC2sp(note, signer.vkey);
    expect(opened).toEqual({ ok: true, origin: signer.name, size: 42, root, extensions: [] });
    // The same key again from APP_KEY, another from another APP_KEY.
    expect(checkpointSigner('test app key', signer.name).vkey).toBe(signer.vkey);
    expect(checkpointSigner('another key', signer.name).vkey).not.toBe(signer.vkey);

    // The module's own opener: the key as printed, a changed body, another key, a file of notes.
    const verifier = parseVerifierKey(signer.vkey);
    expect(openCheckpoint(note, verifier)).toEqual({ origin: signer.name, treeSize: 42, rootHash: root });
    const forged = note.replace('\n42\n', '\n43\n');
    expect(verifyC2sp(forged, signer.vkey).ok).toBe(false);
    expect(() => openCheckpoint(forged, verifier)).toThrow(/does not verify/);
    const other = checkpointSigner('another key', signer.name);
    expect(() => openCheckpoint(note, other)).toThrow(/no signature by the key/);
    const second = signCheckpoint({ origin: signer.name, treeSize: 43, rootHash: root }, signer);
    expect(splitNotes(`${note}\n${second}\n`)).toEqual([note, second]);
    expect(() => parseVerifierKey('nope')).toThrow(/verifier key/);
  });
});

let handle: DatabaseHandle & { url?: string };
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

const allRows = async (db = handle.db) =>
  rowsOf<StoredChainRow>(
    await db.execute(sql`select ${CHAIN_COLUMNS} from audit_events order by audit_events.id`),
  );

/** Every row in the tree once, in id order: the newest checkpoint is the RFC 6962 root of all rows. */
async function expectAllSealed(db = handle.db) {
  const rows = await allRows(db);
  const checkpoints = await db.select().from(auditCheckpoints).orderBy(asc(auditCheckpoints.treeSize));
  const newest = checkpoints.at(-1)!;
  expect(newest.treeSize).toBe(rows.length);
  expect(newest.lastId).toBe(Number(rows.at(-1)!.id));
  expect(newest.rootHash).toBe(
    mth(rows.map((r) => Buffer.from(canonicalContent(r), 'utf8'))).toString('hex'),
  );
  // Every stored checkpoint is the root of the first tree_size rows: no fork, no row twice.
  const check = await verifyTrail(db, { verifier: signer });
  expect(check.status, check.broken?.message).toBe('intact');
  expect(check.checkpointsChecked).toBe(checkpoints.length);
  expect(check.pending).toBe(0);
  return { rows, checkpoints };
}

describe('the sealer', () => {
  it('writes nothing when there is nothing new, and seals rows written since, in id order', async () => {
    const sealer = createSealer({ db: handle.db, signer, intervalMs: 0 });
    await recordAudit(handle.db, { action: 'test.first', outcome: 'success' });
    const first = await sealer.sealNow();
    const before = await handle.db.select().from(auditCheckpoints);
    await sealer.round();
    await sealer.round();
    expect(await handle.db.select().from(auditCheckpoints)).toEqual(before);
    for (let i = 0; i < 5; i++)
      await recordAudit(handle.db, { action: 'test.more', outcome: 'success', details: { i } });
    const second = await sealer.sealNow();
    expect(second!.treeSize).toBe(first!.treeSize + 5);
    expect(openCheckpoint(second!.note, signer).treeSize).toBe(second!.treeSize);
    await expectAllSealed();
  });

  it('verifies intact while a server seals on during the walk (a checkpoint made since is not rows removed)', async () => {
    const sealer = createSealer({ db: handle.db, signer, intervalMs: 0 });
    await recordAudit(handle.db, { action: 'test.walk', outcome: 'success' });
    await sealer.sealNow();
    // The walk reads the newest checkpoint first; the next rows are written and sealed just before it
    // reads the list of checkpoints to compare, as the image's smoke test once caught a server doing.
    let sealedDuringWalk = false;
    const racing = new Proxy(handle.db, {
      get(target, key, receiver) {
        if (key !== 'execute') return Reflect.get(target, key, receiver);
        return async (query: Parameters<typeof target.execute>[0]) => {
          const text = JSON.stringify(query);
          if (!sealedDuringWalk && text.includes('from audit_checkpoints') && text.includes('tree_size >')) {
            sealedDuringWalk = true;
            for (let i = 0; i < 3; i++)
              await recordAudit(handle.db, { action: 'test.during', outcome: 'success', details: { i } });
            await sealer.sealNow();
          }
          return target.execute(query);
        };
      },
    });
    const check = await verifyTrail(racing, { verifier: signer });
    expect(sealedDuringWalk).toBe(true);
    expect(check.status, check.broken?.message).toBe('intact');
    await expectAllSealed();
  });

  it('seals every row exactly once in id order with 20 concurrent writers, group-committed settles and a sealer running', async () => {
    const user = await createUser(handle.db);
    const settle = createSettleWriter(handle.db);
    const sealer = createSealer({ db: handle.db, signer, intervalMs: 0 });
    const repeat = (i: number): RepeatedSearch => ({
      mode: 'repeat',
      id: randomUUID(),
      userId: user.id,
      kind: 'tel',
      query: `9190000${String(i).padStart(5, '0')}`,
      queryTyped: `+91 90000 ${i}`,
      cacheOf: randomUUID(),
      ip: '127.0.0.1',
      deviceId: null,
      caseReference: `CASE-${i}`,
      answered: ['sandbox'],
      errors: {},
      sandbox: true,
      at: new Date(),
      actorEmail: user.email,
      action: 'lookup.tel',
      target: `9190000${i}`,
      details: { query_typed: `+91 90000 ${i}`, n: i },
      noRecord: i % 3 === 0,
    });
    const before = (await allRows()).length;
    let writing = true;
    const sealing = (async () => {
      while (writing) {
        await sealer.round();
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
    })();
    const writers = Array.from({ length: 20 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 5; i++) {
          if (w % 2 === 0) {
            await handle.db.transaction(async (tx) => {
              await tx.execute(sql`select 1`);
              await recordAudit(tx, [
                { action: 'test.parallel', outcome: 'success', details: { w, i, part: 1 } },
                { action: 'test.parallel', outcome: 'failure', details: { w, i, part: 2 } },
              ]);
            });
          } else {
            const results = await Promise.all(
              Array.from({ length: 4 }, (_, k) => settle(repeat(w * 100 + i * 10 + k))),
            );
            expect(results.every((r) => r.written)).toBe(true);
          }
        }
      })(),
    );
    await Promise.all(writers);
    writing = false;
    await sealing;
    await sealer.sealNow();
    const { rows } = await expectAllSealed();
    expect(rows.length - before).toBe(10 * 5 * 2 + 10 * 5 * 4);
  });

  it(
    databaseKind() === 'postgres'
      ? 'PostgreSQL: a transaction that takes its id first and commits last holds the seal back, then is sealed in its place'
      : 'PGlite: a transaction holds the one connection, so a row is sealed in its place once it commits',
    async () => {
      const sealer = createSealer({ db: handle.db, signer, intervalMs: 0 });
      await sealer.sealNow();
      if (databaseKind() === 'pglite') {
        await handle.db.transaction(async (tx) => {
          await recordAudit(tx, { action: 'test.slow', outcome: 'success' });
          await recordAudit(tx, { action: 'test.slow', outcome: 'success' });
        });
        await sealer.sealNow();
        await expectAllSealed();
        return;
      }
      // A second connection: its transaction takes an id, then waits while others write and commit.
      const other = await openDatabase({ url: handle.url, poolSize: 2 });
      let release!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let slowId = 0;
      let tookId!: () => void;
      const took = new Promise<void>((resolve) => {
        tookId = resolve;
      });
      const slow = other.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(auditEvents)
          .values({ action: 'test.slow', outcome: 'success' })
          .returning({ id: auditEvents.id });
        slowId = row!.id;
        tookId();
        await released;
      });
      try {
        await took;
        for (let i = 0; i < 10; i++)
          await recordAudit(handle.db, { action: 'test.after_slow', outcome: 'success' });
        const higher = (await allRows()).at(-1)!;
        expect(Number(higher.id)).toBeGreaterThan(slowId);
        // Rounds go on while it is open: nothing at or past its id is sealed.
        for (let i = 0; i < 5; i++) await sealer.round();
        const held = await sealer.sealNow(300).catch((error: Error) => error);
        expect(held).toBeInstanceOf(Error);
        const [newest] = await handle.db
          .select()
          .from(auditCheckpoints)
          .orderBy(sql`tree_size desc`)
          .limit(1);
        expect(newest!.lastId).toBeLessThan(slowId);
        release();
        await slow;
        await sealer.sealNow();
        const { rows } = await expectAllSealed();
        const ids = rows.map((r) => Number(r.id));
        expect(ids).toContain(slowId);
        expect(ids.indexOf(slowId)).toBe(ids.indexOf(Number(higher.id)) - 10);
      } finally {
        release();
        await slow.catch(() => undefined);
        await other.close();
      }
    },
  );

  it('does not fork the tree with two sealers at once (two processes: two connections on PostgreSQL)', async () => {
    const second =
      databaseKind() === 'postgres' ? await openDatabase({ url: handle.url, poolSize: 3 }) : handle;
    try {
      const a = createSealer({ db: handle.db, signer, intervalMs: 0 });
      const b = createSealer({ db: second.db, signer, intervalMs: 0 });
      let writing = true;
      const race = (s: typeof a) =>
        (async () => {
          let locked = 0;
          while (writing) {
            if ((await s.round()).locked) locked += 1;
            await new Promise((resolve) => setTimeout(resolve, 1));
          }
          return locked;
        })();
      const rounds = [race(a), race(b)];
      for (let i = 0; i < 30; i++) {
        await Promise.all(
          Array.from({ length: 3 }, (_, k) =>
            recordAudit(k === 0 ? handle.db : second.db, {
              action: 'test.two_sealers',
              outcome: 'success',
              details: { i, k },
            }),
          ),
        );
      }
      writing = false;
      const [locksA, locksB] = await Promise.all(rounds);
      expect(locksA! + locksB!).toBeGreaterThan(0);
      await Promise.all([a.sealNow(), b.sealNow()]);
      await expectAllSealed();
    } finally {
      if (second !== handle) await second.close();
    }
  });
});

describe('the hand-over outside the database', () => {
  it('mails the newest checkpoint to the auditor once per period, and logs a failing file once without stopping', async () => {
    const mailer = outboxMailer(handle.db);
    const sealer = createSealer({
      db: handle.db,
      signer,
      intervalMs: 0,
      anchor: { email: 'auditor@example.test', minutes: 60, mailer },
    });
    await recordAudit(handle.db, { action: 'test.mailed', outcome: 'success' });
    const newest = await sealer.sealNow();
    // Forced: whatever earlier tests handed over.
    expect(await sealer.anchor(true)).toEqual(['mail auditor@example.test']);
    const [mail] = await listOutbox(handle.db, 1);
    expect(mail).toMatchObject({ to: 'auditor@example.test' });
    expect(mail!.subject).toBe(`Audit checkpoint ${signer.name} ${newest!.treeSize}`);
    expect(mail!.text).toContain(newest!.note);
    expect(mail!.text).toContain(signer.vkey);
    expect(
      openCheckpoint(splitNotes(mail!.text.slice(mail!.text.indexOf(`${signer.name}\n`)))[0]!, signer)
        .treeSize,
    ).toBe(newest!.treeSize);
    // Not again within the period, even though the tree grew.
    await recordAudit(handle.db, { action: 'test.mailed', outcome: 'success' });
    await sealer.sealNow();
    expect(await sealer.anchor()).toEqual([]);

    // A file that cannot be written (a database of its own: nothing handed over yet, so it is due):
    // the timer's hand-over fails, is logged once, and sealing goes on.
    const fresh = await createTestDatabase();
    try {
      const errors: string[] = [];
      const broken = createSealer({
        db: fresh.db,
        signer,
        intervalMs: 10,
        anchor: { file: '/nonexistent-dir/checkpoints.txt', minutes: 1 },
        log: { error: (_o, message) => errors.push(message) },
      });
      await recordAudit(fresh.db, { action: 'test.after_failure', outcome: 'success' });
      broken.start();
      // The timer's first hand-over, however loaded the machine (it ticks every 10 ms); then more ticks.
      for (let waited = 0; errors.length === 0 && waited < 15_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      await expect(broken.anchor()).rejects.toThrow(/ENOENT/);
      await recordAudit(fresh.db, { action: 'test.after_failure', outcome: 'success' });
      await broken.stop();
      expect(errors).toEqual(['audit trail: the checkpoint could not be handed over; trying again']);
      await expectAllSealed(fresh.db);
    } finally {
      await fresh.close();
    }
    await expectAllSealed();
  });
});
