import { readdirSync, statSync } from 'node:fs';
import { utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SeededProject, type TestApp } from './helpers/app.js';

// A full disk under the file store. The fault is injected at the store's one write to disk
// (FileStore.writeBytes): it writes half of the bytes, then fails with ENOSPC, as a disk that
// fills midway does; the real disk is never filled.

let t: TestApp;
let p: SeededProject;
beforeAll(async () => {
  t = await createTestApp();
  p = await t.seedProject('Disk');
});
afterAll(() => t.close());

type Writer = { writeBytes(full: string, bytes: Uint8Array): Promise<void> };

/** Fills the disk: each write stores half its bytes, then fails with ENOSPC. Answers the undo. */
function diskFull() {
  const store = t.infra.files as unknown as Writer;
  store.writeBytes = async (full, bytes) => {
    await writeFile(full, bytes.subarray(0, Math.floor(bytes.length / 2)));
    throw Object.assign(new Error(`ENOSPC: no space left on device, write '${full}'`), { code: 'ENOSPC', errno: -28, syscall: 'write' });
  };
  return () => delete (store as Partial<Writer>).writeBytes;
}

/** Every file under the store's directory. */
function storedFiles(dir = t.infra.files.root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? storedFiles(full) : [full];
  });
}

function pdfForm() {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.4\n' + 'x'.repeat(20_000)))], { type: 'application/pdf' }), 'report.pdf');
  return form;
}

describe('uploads while the disk is full', () => {
  it('answers 507 INSUFFICIENT_STORAGE, leaves no partial file however often retried, and /ready says 503 until the disk has room again', async () => {
    const before = storedFiles().length;
    const undo = diskFull();
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const res = await t.post(`/v3/${p.projectId}/files`, { token: p.agent.token, body: pdfForm() });
        expect(res.status).toBe(507);
        expect(res.body).toMatchObject({ success: false, code: 'INSUFFICIENT_STORAGE', field: 'file' });
      }
      expect(storedFiles().length).toBe(before);
      expect((await fetch(`${t.baseUrl}/ready`)).status).toBe(503);
    } finally {
      undo();
    }
    expect((await fetch(`${t.baseUrl}/ready`)).status).toBe(200);
    const stored = await t.post(`/v3/${p.projectId}/files`, { token: p.agent.token, body: pdfForm() });
    expect(stored.status).toBe(200);
    expect(storedFiles().length).toBe(before + 1);
  });

  it('answers 507 for a knowledge-base document upload too, keeping nothing of it', async () => {
    const before = storedFiles().length;
    const undo = diskFull();
    try {
      const form = pdfForm();
      const res = await t.post(`/v3/${p.projectId}/kb`, { token: p.owner.token, body: form });
      expect(res.status).toBe(507);
      expect(res.body.code).toBe('INSUFFICIENT_STORAGE');
      expect(storedFiles().length).toBe(before);
    } finally {
      undo();
    }
  });
});

describe('a process killed while it writes a file', () => {
  it('never leaves a truncated file at an upload’s path: the bytes go there whole, by a rename, once written', async () => {
    const store = t.infra.files as unknown as Writer;
    const original = store.writeBytes.bind(store);
    let halfWritten!: (written: string) => void;
    const written = new Promise<string>((resolve) => (halfWritten = resolve));
    // The write stops halfway and never ends, as it would in a process killed at that instant.
    store.writeBytes = async (full, bytes) => {
      await writeFile(full, bytes.subarray(0, Math.floor(bytes.length / 2)));
      halfWritten(full);
      await new Promise(() => {});
    };
    try {
      void t.infra.files.write(`projects/${p.projectId}/files/killed/report.pdf`, new Uint8Array(20_000));
      const partial = await written;
      expect(partial).not.toContain(`${p.projectId}`);
      expect(await t.infra.files.exists(`projects/${p.projectId}/files/killed/report.pdf`)).toBe(false);
    } finally {
      store.writeBytes = original;
    }
  });

  it('removes at start the writes a killed process abandoned under .partial/, keeping recent ones another node may be writing', async () => {
    const dir = path.join(t.infra.files.root, '.partial');
    const abandoned = path.join(dir, 'abandoned.part');
    const recent = path.join(dir, 'recent.part');
    await writeFile(abandoned, 'half a file');
    await writeFile(recent, 'half a file');
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(abandoned, hourAgo, hourAgo);
    await t.infra.files.init();
    expect(readdirSync(dir)).toContain('recent.part');
    expect(readdirSync(dir)).not.toContain('abandoned.part');
  });
});
