/**
 * basic-ftp (file transfer) against Debian's real `pure-ftpd` with one virtual user (chrooted, a 1 MB quota, no reverse DNS: `-H`), one whose file quota is full,, and a
 * second pure-ftpd that takes one client at most. basic-ftp raises `FTPError` with `code` = the FTP reply code
 * (RFC 959 §4.2) and the server's text as message ("553 Can't open that file: Permission denied"), and passes
 * Node's socket errors through.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { Client } from 'basic-ftp';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';
import { closedPort, findBinary, freePort, spawnServer, tcpProxy } from '../unseen/net-fixtures';

const NOBODY = 65534;
const USER = { user: 'agent', password: 'agent-password' };
/** A user whose file quota (one file) its home already fills: every upload is refused with 552. */
const FULL = { user: 'full', password: 'full-password' };

/** A pure-ftpd on a free port serving `db` (a PureDB of virtual users), with `more` options. */
async function pureFtpd(dir: string, more: string[]): Promise<{ port: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const server = await spawnServer(
    findBinary('pure-ftpd'),
    ['-S', `127.0.0.1,${port}`, '-l', `puredb:${join(dir, 'users.pdb')}`, '-E', '-A', '-H', '-n', '1000:1', ...more],
    port,
  );
  return { port, stop: server.stop };
}

/** Adds a virtual user (`pure-pw useradd`, the password twice on stdin) with `quota` options. */
function addUser(dir: string, login: typeof USER, root: string, quota: string[]): void {
  execFileSync(
    findBinary('pure-pw'),
    [
      'useradd',
      login.user,
      '-u',
      `${NOBODY}`,
      '-g',
      `${NOBODY}`,
      '-d',
      root,
      '-f',
      join(dir, 'users.passwd'),
      ...quota,
    ],
    { input: `${login.password}\n${login.password}\n`, stdio: ['pipe', 'ignore', 'inherit'] },
  );
}

/**
 * The homes: the agent's has an inbox it may write, a folder it may not and a file it may not read (1 MB quota);
 * the full user's holds one file, all its quota allows.
 */
function homes(dir: string): void {
  const root = join(dir, 'home');
  const full = join(dir, 'full');
  mkdirSync(full);
  writeFileSync(join(full, 'archive.zip'), 'x');
  chownSync(full, NOBODY, NOBODY);
  chownSync(join(full, 'archive.zip'), NOBODY, NOBODY);
  // pure-ftpd counts a home's files in its .ftpquota (pure-quotacheck(8)): the one file fills the quota.
  execFileSync(findBinary('pure-quotacheck'), ['-u', 'nobody', '-d', full]);
  mkdirSync(join(root, 'inbox'), { recursive: true });
  mkdirSync(join(root, 'locked'));
  writeFileSync(join(root, 'payroll.csv'), 'name,salary\n');
  chownSync(root, NOBODY, NOBODY);
  chownSync(join(root, 'inbox'), NOBODY, NOBODY);
  chmodSync(join(root, 'locked'), 0o555); // root's: the user may not create files in it
  chmodSync(join(root, 'payroll.csv'), 0o000);
  addUser(dir, USER, root, ['-N', '1']);
  addUser(dir, FULL, full, ['-n', '1']);
  execFileSync(findBinary('pure-pw'), ['mkdb', join(dir, 'users.pdb'), '-f', join(dir, 'users.passwd')]);
}

/** Runs `op` on a fresh, logged-in client and always closes it. */
async function using(port: number, op: (c: Client) => Promise<unknown>, login = USER): Promise<void> {
  const c = new Client(12_000); // pure-ftpd answers a failed login after about 8 s
  try {
    await c.access({ host: '127.0.0.1', port, ...login, secure: false });
    await op(c);
  } finally {
    c.close();
  }
}

const sink = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });
const upload =
  (path: string, bytes = 64) =>
  (c: Client) =>
    c.uploadFrom(Readable.from([Buffer.alloc(bytes, 1)]), path);
const download = (path: string) => (c: Client) => c.downloadTo(sink(), path);

export const basicFtpLibrary: UnseenLibrary = {
  name: 'basic-ftp',
  kind: 'file transfer (FTP)',
  server: 'pure-ftpd 1.0 (Debian): a chrooted virtual user with a 1 MB quota; one with a single client slot',
  async start() {
    const dir = mkdtempSync(join(tmpdir(), 'unseen4-ftp-'));
    homes(dir);
    const main = await pureFtpd(dir, []);
    const single = await pureFtpd(dir, ['-c', '1']);
    // Takes the single server's only slot (`-c 1` counts logged-in users): the next client is turned away with 421.
    const holder = new Client(5_000);
    await holder.access({ host: '127.0.0.1', port: single.port, ...USER, secure: false });
    const proxy = await tcpProxy(main.port);
    const refused = await closedPort();
    /** Logs in through the proxy, then cuts the connection once the next command reached the server. */
    const cut = (op: (c: Client) => Promise<unknown>) => () =>
      using(proxy.port, async (c) => {
        proxy.mode = 'reset_after_request';
        try {
          await op(c);
        } finally {
          proxy.mode = 'forward';
        }
      });
    const one = (name: string, effect: Effect, run: () => Promise<unknown>, verify?: 'holds'): UnseenCase => ({
      id: `basic-ftp.${name}.${effect}`,
      effect,
      run,
      ...(verify ? { verify } : {}),
    });
    const cases: UnseenCase[] = [
      one('refused', 'read', () => using(refused, download('inbox/report.csv'))),
      one('refused', 'write', () => using(refused, upload('inbox/report.csv'))),
      one('login-incorrect-530', 'read', () =>
        using(main.port, download('inbox/report.csv'), { ...USER, password: 'wrong' }),
      ),
      one('login-incorrect-530', 'write', () =>
        using(main.port, upload('inbox/report.csv'), { ...USER, password: 'wrong' }),
      ),
      one('too-many-users-421', 'read', () => using(single.port, download('inbox/report.csv'))),
      one('too-many-users-421', 'write', () => using(single.port, upload('inbox/report.csv'))),
      one('permission-denied-553', 'write', () => using(main.port, upload('locked/report.csv'))),
      one('permission-denied-550', 'read', () => using(main.port, download('payroll.csv'))),
      one('no-such-file-550', 'read', () => using(main.port, download('inbox/missing.csv'))),
      one('no-such-file-550', 'write', () => using(main.port, (c) => c.remove('inbox/missing.csv'))),
      one('quota-552', 'write', () => using(main.port, upload('notes.txt'), FULL)),
      one('directory-exists-550', 'write', () => using(main.port, (c) => c.send('MKD inbox')), 'holds'),
      one('reset-after-command', 'read', cut(download('inbox/report.csv'))),
      one('reset-after-command', 'write', cut(upload('inbox/report.csv'))),
    ];
    return {
      cases,
      stop: async () => {
        holder.close();
        await proxy.stop();
        await Promise.all([main.stop(), single.stop()]);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};
