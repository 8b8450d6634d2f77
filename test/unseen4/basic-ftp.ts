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

/**
 * A virtual user's line of a pure-pw file (README.Virtual-Users, "FILE FORMAT": account, password hash, uid, gid,
 * gecos, home, then upload and download bandwidth and ratios, max connections, files quota, size quota in bytes, four
 * IP lists and time restrictions), written directly, then compiled by `pure-pw mkdb`. The hash is SHA-512 crypt(3)
 * (`openssl passwd -6`), which PureDB checks with crypt(3): `pure-pw useradd` would hash with argon2id, which takes
 * "up to 64 Mb memory, and 100% of a CPU core" a login (README.Virtual-Users; 2 to 3 s on this shared machine, on
 * every login and every useradd). A failed login still waits pure-ftpd's own penalty, compiled in: 3 s and up to 3 s
 * more at random (src/ftpd_p.h `PASSWD_FAILURE_DELAY`, src/ftpd.c `randomsleep`).
 */
function userLine(login: typeof USER, home: string, quota: { files?: number; bytes?: number }): string {
  const hash = execFileSync('openssl', ['passwd', '-6', '-stdin'], { input: `${login.password}\n` })
    .toString()
    .trim();
  const limits = ['', '', '', '', '', `${quota.files ?? ''}`, `${quota.bytes ?? ''}`, '', '', '', '', ''];
  return [login.user, hash, NOBODY, NOBODY, '', `${home}/./`, ...limits].join(':');
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
  const users = [userLine(USER, root, { bytes: 1024 * 1024 }), userLine(FULL, full, { files: 1 })];
  writeFileSync(join(dir, 'users.passwd'), `${users.join('\n')}\n`);
  execFileSync(findBinary('pure-pw'), ['mkdb', join(dir, 'users.pdb'), '-f', join(dir, 'users.passwd')]);
}

/** Runs `op` on a fresh, logged-in client and always closes it. */
async function using(port: number, op: (c: Client) => Promise<unknown>, login = USER): Promise<void> {
  const c = new Client(12_000); // pure-ftpd answers a failed login after 3 to 6 s
  try {
    await c.access({ host: '127.0.0.1', port, ...login, secure: false });
    await op(c);
  } finally {
    c.close();
  }
}

/**
 * Logs in and stays: takes a `-c 1` server's only slot. The server counts its children, and the child that served
 * spawnServer's readiness probe may not have exited yet: a 421 then is that probe, so log in again (at most 5 s).
 */
async function holdSlot(port: number): Promise<Client> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const holder = new Client(5_000);
    try {
      await holder.access({ host: '127.0.0.1', port, ...USER, secure: false });
      return holder;
    } catch (e) {
      holder.close();
      if ((e as { code?: unknown }).code !== 421 || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
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
    const holder = await holdSlot(single.port).catch(async (e: unknown) => {
      await Promise.all([main.stop(), single.stop()]);
      throw e;
    });
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
