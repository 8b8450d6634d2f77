/**
 * ssh2-sftp-client (file transfer over SSH, SFTP version 3) against Debian's real OpenSSH `sshd` and its
 * internal-sftp (./sshd.ts), through a TCP proxy for lost answers. The client rejects with an `Error` whose message
 * names its method and the server's text ("get: No such file /…/missing.csv") and whose `code` is the SFTP status
 * code of the server's SSH_FXP_STATUS reply (draft-ietf-secsh-filexfer-02 §7: 2 SSH_FX_NO_SUCH_FILE, 3
 * SSH_FX_PERMISSION_DENIED, 4 SSH_FX_FAILURE), with `custom: true`; a refused key is "getConnection: All configured authentication
 * methods failed" (ssh2's client-authentication failure, RFC 4252 §5.1), and Node's socket errors keep their code.
 */
import { Readable } from 'node:stream';
import SftpClient from 'ssh2-sftp-client';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';
import { closedPort, tcpProxy } from '../unseen/net-fixtures';
import { USER, startSshd } from './sshd';

/** Connects as `nobody` with `key`, runs `op`, and always ends the client. */
async function using(port: number, key: string, op: (c: SftpClient) => Promise<unknown>): Promise<void> {
  const c = new SftpClient();
  try {
    await c.connect({ host: '127.0.0.1', port, username: USER, privateKey: key, readyTimeout: 5_000 });
    await op(c);
  } finally {
    await c.end().catch(() => undefined);
  }
}

export const ssh2SftpClientLibrary: UnseenLibrary = {
  name: 'ssh2-sftp-client',
  kind: 'file transfer (SFTP over SSH)',
  server: 'OpenSSH 9.2 sshd (Debian), internal-sftp for nobody with a public key',
  async start() {
    const sshd = await startSshd();
    const proxy = await tcpProxy(sshd.port);
    const refused = await closedPort();
    const at = (path: string) => `${sshd.root}/${path}`;
    const download = (path: string) => (c: SftpClient) => c.get(at(path));
    const upload = (path: string) => (c: SftpClient) =>
      c.put(Readable.from([Buffer.from('id,total\n2,40\n')]), at(path));
    /** Connects through the proxy, then cuts the connection once the next request reached sshd. */
    const cut = (op: (c: SftpClient) => Promise<unknown>) => () =>
      using(proxy.port, sshd.key, async (c) => {
        proxy.mode = 'reset_after_request';
        try {
          await op(c);
        } finally {
          proxy.mode = 'forward';
        }
      });
    const one = (name: string, effect: Effect, run: () => Promise<unknown>): UnseenCase => ({
      id: `ssh2-sftp-client.${name}.${effect}`,
      effect,
      run,
    });
    const cases: UnseenCase[] = [
      one('refused', 'read', () => using(refused, sshd.key, download('inbox/report.csv'))),
      one('refused', 'write', () => using(refused, sshd.key, upload('inbox/new.csv'))),
      one('key-refused', 'read', () => using(sshd.port, sshd.strangerKey, download('inbox/report.csv'))),
      one('key-refused', 'write', () => using(sshd.port, sshd.strangerKey, upload('inbox/new.csv'))),
      one('no-such-file-2', 'read', () => using(sshd.port, sshd.key, download('inbox/missing.csv'))),
      one('no-such-file-2', 'write', () => using(sshd.port, sshd.key, (c) => c.delete(at('inbox/missing.csv')))),
      one('permission-denied-3', 'read', () => using(sshd.port, sshd.key, download('payroll.csv'))),
      one('permission-denied-3', 'write', () => using(sshd.port, sshd.key, upload('locked/report.csv'))),
      // rmdir(2) fails with ENOTEMPTY, which SFTP v3 has no status for: OpenSSH answers SSH_FX_FAILURE (4).
      one('failure-4', 'write', () => using(sshd.port, sshd.key, (c) => c.rmdir(at('inbox/archive')))),
      one('reset-after-request', 'read', cut(download('inbox/report.csv'))),
      one('reset-after-request', 'write', cut(upload('inbox/new.csv'))),
    ];
    return {
      cases,
      stop: async () => {
        await proxy.stop();
        await sshd.stop();
      },
    };
  },
};
