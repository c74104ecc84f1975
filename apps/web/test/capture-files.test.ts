// The captures /verify reads from what is dropped on it: a capture's ZIP, an evidence bundle's
// captures/ folders, or a capture's loose files; each becomes the body of POST /api/verify/capture
// (the manifest's text, its signature in base64, the SHA-256 of each file the manifest lists).
import { createHash } from 'node:crypto';
import { verifyCaptureBody } from '@footprint/domain';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  areLooseCaptureFiles,
  CaptureReadError,
  captureFolders,
  captureOfFiles,
  capturesInZip,
  isZipFile,
  startsAsZip,
  zipEntries,
} from '../src/features/public/capture-files.ts';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const artefacts = {
  'page.mhtml': strToU8('MIME-Version: 1.0\r\nContent-Type: multipart/related\r\n\r\n<html>synthetic</html>'),
  'page.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]),
  'page.txt': strToU8('A synthetic page\nIts paragraph.'),
  'headers.json': strToU8('{"content-type":"text/html"}'),
};

const manifestOf = (sequence: number, kind: 'capture' | 'removal' = 'capture') =>
  JSON.stringify({
    format: 'footprint-capture/1',
    kind,
    sequence,
    requested_url: kind === 'capture' ? 'http://127.0.0.1:4100/page' : undefined,
    files:
      kind === 'capture'
        ? Object.entries(artefacts).map(([name, bytes]) => ({
            name,
            sha256: sha256(bytes),
            bytes: bytes.length,
          }))
        : undefined,
  });
const signature = new Uint8Array(64).fill(7);

function captureFiles(sequence: number) {
  return { 'manifest.json': strToU8(manifestOf(sequence)), 'manifest.sig': signature, ...artefacts };
}

describe('the captures of a dropped ZIP', () => {
  it('reads a capture ZIP: its manifest, signature and every listed file hashed', async () => {
    const zip = zipSync({
      ...captureFiles(3),
      'capture-signing-key.pem': strToU8('-----BEGIN PUBLIC KEY-----'),
    });
    expect(startsAsZip(zip)).toBe(true);
    expect(await isZipFile(new Blob([zip]))).toBe(true);
    expect(await isZipFile(new Blob(['%PDF-1.7']))).toBe(false);
    const [capture, ...rest] = await capturesInZip(zip);
    expect(rest).toEqual([]);
    expect(capture).toMatchObject({ folder: '', sequence: 3, kind: 'capture', problem: null });
    expect(capture?.requestedUrl).toBe('http://127.0.0.1:4100/page');
    expect(capture?.body?.manifest).toBe(manifestOf(3));
    expect(Buffer.from(capture?.body?.signature ?? '', 'base64')).toEqual(Buffer.from(signature));
    expect(capture?.body?.files).toEqual(
      Object.entries(artefacts).map(([name, bytes]) => ({ name, sha256: sha256(bytes) })),
    );
    // What is sent is what the API accepts.
    expect(verifyCaptureBody.safeParse(capture?.body).success).toBe(true);
  });

  it("finds an evidence bundle's captures and removals, not its own manifest, and says which file is absent", async () => {
    const { 'page.mhtml': _dropped, ...second } = captureFiles(2);
    const zip = zipSync({
      'manifest.json': strToU8('{"files":[]}'),
      'capture-signing-key.pem': strToU8('key'),
      captures: {
        '001-aaaa': captureFiles(1),
        '002-bbbb': second,
        '003-removal-aaaa': { 'manifest.json': strToU8(manifestOf(3, 'removal')), 'manifest.sig': signature },
      },
    });
    expect(captureFolders([...zipEntries(zip).keys()])).toEqual([
      'captures/001-aaaa/',
      'captures/002-bbbb/',
      'captures/003-removal-aaaa/',
    ]);
    const found = await capturesInZip(zip);
    expect(found.map((capture) => [capture.folder, capture.sequence, capture.kind])).toEqual([
      ['captures/001-aaaa/', 1, 'capture'],
      ['captures/002-bbbb/', 2, 'capture'],
      ['captures/003-removal-aaaa/', 3, 'removal'],
    ]);
    expect(found[0]?.body?.files.map((file) => file.name)).toEqual(Object.keys(artefacts));
    // The missing page.mhtml is not sent: the server reports it missing.
    expect(found[1]?.body?.files.map((file) => file.name)).toEqual(['page.png', 'page.txt', 'headers.json']);
    expect(found[2]?.body?.files).toEqual([]);
  });

  it('hashes the changed bytes of a changed file', async () => {
    const files = captureFiles(1);
    const changed = Uint8Array.from(files['page.mhtml']);
    changed[10] = (changed[10] ?? 0) ^ 1;
    const [capture] = await capturesInZip(zipSync({ ...files, 'page.mhtml': changed }));
    const mhtml = capture?.body?.files.find((file) => file.name === 'page.mhtml');
    expect(mhtml?.sha256).toBe(sha256(changed));
    expect(mhtml?.sha256).not.toBe(sha256(artefacts['page.mhtml']));
  });

  it('refuses captures that unpack to more than the limit, and a ZIP it cannot read', async () => {
    const zip = zipSync(captureFiles(1));
    await expect(capturesInZip(zip, zipEntries(zip), 16)).rejects.toEqual(
      new CaptureReadError('unpackedTooLarge'),
    );
    expect(() => zipEntries(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0]))).toThrow(CaptureReadError);
    // A ZIP without captures (a bundle of an older server, any other ZIP) has none.
    expect(await capturesInZip(zipSync({ 'a.txt': strToU8('a') }))).toEqual([]);
  });

  it('does not ask the server about a signature that is not 64 bytes', async () => {
    const [capture] = await capturesInZip(
      zipSync({ ...captureFiles(1), 'manifest.sig': new Uint8Array(10) }),
    );
    expect(capture?.body).toBeNull();
    expect(capture?.problem).toBe('signature');
  });
});

describe("a capture's loose files", () => {
  const file = (name: string, bytes: Uint8Array | string) => new File([bytes as BlobPart], name);

  it('are told from one file to check whole', () => {
    expect(areLooseCaptureFiles([{ name: 'report.pdf' }])).toBe(false);
    expect(areLooseCaptureFiles([{ name: 'case-OP-1.zip' }])).toBe(false);
    expect(areLooseCaptureFiles([{ name: 'manifest.json' }])).toBe(true);
    expect(areLooseCaptureFiles([{ name: 'page.png' }, { name: 'page.txt' }])).toBe(true);
  });

  it('are read as one capture when manifest.json and manifest.sig are among them', async () => {
    const chosen = [
      file('manifest.json', manifestOf(4)),
      file('manifest.sig', signature),
      file('page.txt', artefacts['page.txt']),
      file('page.png', artefacts['page.png']),
      file('unrelated.pdf', '%PDF'),
    ];
    const capture = await captureOfFiles(chosen);
    expect(capture.folder).toBeNull();
    expect(capture.sequence).toBe(4);
    expect(capture.body?.files).toEqual([
      { name: 'page.png', sha256: sha256(artefacts['page.png']) },
      { name: 'page.txt', sha256: sha256(artefacts['page.txt']) },
    ]);
    await expect(captureOfFiles(chosen.filter((each) => each.name !== 'manifest.sig'))).rejects.toEqual(
      new CaptureReadError('looseIncomplete'),
    );
    await expect(captureOfFiles(chosen, 4)).rejects.toEqual(new CaptureReadError('unpackedTooLarge'));
  });
});
