/**
 * Node's file-system errors, provoked for real where the machine allows it. Tests may run as root, which passes
 * every permission check on files: EACCES comes from `access(X_OK)` on a file without any execute bit (root needs
 * one too, path_resolution(7)), EPERM from a hard link to a directory (link(2): not permitted, even to root).
 * ENOSPC is a write to /dev/full (full(4): "writes … fail with ENOSPC"). EMFILE is provoked in a child process
 * started with `ulimit -n 32`, and its error's fields rebuilt here. EIO cannot be provoked without a failing device:
 * it is built in the shape Node gives every system error ({ errno, code, syscall }).
 */
import { execFileSync } from 'node:child_process';
import { constants, existsSync, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectClean, invoke, summary, toolCalling } from './invoke';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'rr-fs-'));
  await fs.writeFile(join(dir, 'file.txt'), 'x');
  await fs.mkdir(join(dir, 'sub'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const fsTool = (effect: 'read' | 'write', run: () => unknown) => toolCalling(`fs_${effect}`, effect, run);

const refused = (cls: string, reason: string, action: string) => ({
  class: cls,
  reason,
  action,
  retryAfterMs: undefined,
  phase: 'dispatch',
});

test.each([
  ['ENOENT', 'read', () => fs.readFile(join(dir, 'missing.txt')), refused('semantic_rejection', 'not_found', 'replan')],
  [
    'ENOTDIR',
    'read',
    () => fs.readFile(join(dir, 'file.txt', 'child')),
    refused('semantic_rejection', 'precondition_failed', 'replan'),
  ],
  [
    'EISDIR',
    'read',
    () => fs.readFile(join(dir, 'sub')),
    refused('semantic_rejection', 'precondition_failed', 'replan'),
  ],
  ['EEXIST', 'write', () => fs.mkdir(join(dir, 'sub')), refused('semantic_rejection', 'conflict', 'replan')],
  [
    'EACCES',
    'read',
    () => fs.access(join(dir, 'file.txt'), constants.X_OK),
    refused('authorization', 'forbidden', 'stop'),
  ],
  [
    'EPERM',
    'write',
    () => fs.link(join(dir, 'sub'), join(dir, 'sub-link')),
    refused('authorization', 'forbidden', 'stop'),
  ],
] as const)('%s on a %s', async (code, effect, run, expected) => {
  const r = await invoke(fsTool(effect, run), {}, { label: ['node:fs', code] });
  expect(r.thrown).toMatchObject({ code });
  expect(summary(r)).toEqual(expected);
  expectClean(r.failure.publicMessage, [dir, 'file.txt']);
});

test('ENOSPC (a write to /dev/full) → outcome_unknown → reconcile: the write may be partial, so not replay-safe (docs/DESIGN.md, "Phases")', async () => {
  if (!existsSync('/dev/full')) throw new Error('/dev/full is missing on this machine');
  const r = await invoke(
    fsTool('write', () => fs.writeFile('/dev/full', 'data')),
    {},
    { label: ['node:fs', 'ENOSPC'] },
  );
  expect(r.thrown).toMatchObject({ code: 'ENOSPC' });
  expect(summary(r)).toEqual({
    class: 'outcome_unknown',
    reason: 'unspecified',
    action: 'reconcile',
    retryAfterMs: undefined,
    phase: 'commit_unknown',
  });
  expect(r.failure.replaySafe).toBe(false);
});

test('EMFILE (a process at its open-file limit) → transient/unavailable → retry', async () => {
  const script = `const fs=require('fs');const a=[];try{for(;;)a.push(fs.openSync(${JSON.stringify(join(dir, 'file.txt'))},'r'))}catch(e){process.stdout.write(JSON.stringify({code:e.code,errno:e.errno,syscall:e.syscall,message:e.message}))}`;
  const out = execFileSync('sh', ['-c', `ulimit -n 32 && exec "${process.execPath}" -e "$0"`, script], {
    encoding: 'utf8',
  });
  const fields = JSON.parse(out) as { code: string; errno: number; syscall: string; message: string };
  expect(fields).toMatchObject({ code: 'EMFILE', syscall: 'open' });
  const r = await invoke(
    fsTool('read', () => Promise.reject(Object.assign(new Error(fields.message), fields))),
    {},
    { label: ['node:fs', 'EMFILE'] },
  );
  expect(summary(r)).toEqual(refused('transient', 'unavailable', 'retry'));
  expectClean(r.failure.publicMessage, [dir]);
});

test('EIO (built in the shape of a Node system error) on a read → unrecoverable → escalate', async () => {
  const eio = Object.assign(new Error(`EIO: i/o error, read`), { errno: -5, code: 'EIO', syscall: 'read' });
  const r = await invoke(
    fsTool('read', () => Promise.reject(eio)),
    {},
    { label: ['node:fs', 'EIO (built)'] },
  );
  expect(summary(r)).toEqual(refused('unrecoverable', 'unspecified', 'escalate'));
});

test('a SyntaxError from parsing a result (JSON.parse) → invalid_result → reject', async () => {
  const r = await invoke(
    fsTool('read', async () => JSON.parse(await fs.readFile(join(dir, 'file.txt'), 'utf8'))),
    {},
    { label: ['node', 'SyntaxError from JSON.parse'] },
  );
  expect(summary(r)).toEqual({
    class: 'invalid_result',
    reason: 'schema_violation',
    action: 'reject',
    retryAfterMs: undefined,
    phase: 'postcheck',
  });
});

test('a SyntaxError from res.json() on an HTML page → invalid_result → reject', async () => {
  const http = await import('node:http');
  const server = http.createServer((_q, s) =>
    s.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  try {
    const r = await invoke(
      fsTool('read', async () => (await fetch(`http://127.0.0.1:${port}/`)).json()),
      {},
      { label: ['fetch', 'SyntaxError from res.json()'] },
    );
    expect(summary(r)).toEqual({
      class: 'invalid_result',
      reason: 'schema_violation',
      action: 'reject',
      retryAfterMs: undefined,
      phase: 'postcheck',
    });
    expectClean(r.failure.publicMessage, [port]);
  } finally {
    server.close();
  }
});

// The kind, not one library: an `invalid_result` a client library's error names (a body that does not parse) came
// back after the request left. A read is rejected (replay-safe). A write whose answer `ctx.http` did not see may have
// had any status (an error page, or a 2xx: applied): its outcome is unknown, reconciled (issue 35; a write whose 2xx
// ctx.http saw is applied: test/loopback/write-answer-applied.test.ts).
test.each([
  ['a read', 'read', {}, ['invalid_result', 'postcheck', true, 'reject']],
  ['a write', 'write', {}, ['outcome_unknown', 'commit_unknown', false, 'reconcile']],
  [
    'a write its receiver deduplicates',
    'write',
    { idempotency: { carrier: 'header', name: 'Idempotency-Key', deduplicates: true } },
    ['outcome_unknown', 'commit_unknown', true, 'reconcile'],
  ],
] as const)(
  'a SyntaxError from res.json() on a POST answered 200 with HTML, %s → %j',
  async (_name, effect, more, expected) => {
    const http = await import('node:http');
    const server = http.createServer((_q, s) => s.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    try {
      const post = async () => (await fetch(`http://127.0.0.1:${port}/pay`, { method: 'POST', body: '{}' })).json();
      const r = await invoke(toolCalling(`pay_${effect}`, effect, post, more as never), {});
      expect([r.failure.class, r.failure.phase, r.failure.replaySafe, r.action]).toEqual(expected);
      expect(r.failure.publicMessage).not.toContain(String(port));
    } finally {
      server.close();
    }
  },
);
