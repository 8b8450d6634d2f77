/**
 * Debian's real OpenSSH server (`openssh-server` 9.2) in the foreground (`sshd -D -e -f <conf>`) with its own config
 * and host key in a temp dir, on a free loopback port, serving only SFTP (`ForceCommand internal-sftp`, OpenSSH's
 * sftp-server in process) to the system user `nobody` with a public key the test made (`AuthorizedKeysFile` in the
 * temp dir; `StrictModes no`). The files live under `root` in the temp dir (sshd_config(5), sftp-server(8)):
 * `inbox/` (with a folder `archive/` holding one file) is nobody's, `locked/` and `payroll.csv` are root's and closed
 * to nobody.
 *
 * sshd needs its privilege separation directory, /run/sshd (the Debian service creates it at boot; a machine that
 * never started the service has none): it is made here when missing.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary, freePort, spawnServer } from '../unseen/net-fixtures';

const NOBODY = 65534;
export const USER = 'nobody';

/** An ed25519 key pair made by ssh-keygen (no passphrase). @returns the private key (OpenSSH format) and the public line. */
function keyPair(path: string): { privateKey: string; publicKey: string } {
  execFileSync(findBinary('ssh-keygen'), ['-q', '-t', 'ed25519', '-N', '', '-C', 'unseen4', '-f', path]);
  return { privateKey: readFileSync(path, 'utf8'), publicKey: readFileSync(`${path}.pub`, 'utf8') };
}

function config(dir: string, port: number): string {
  return [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${join(dir, 'host_ed25519')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    'UsePAM no',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PubkeyAuthentication yes',
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    'StrictModes no',
    'PermitRootLogin no',
    `AllowUsers ${USER}`,
    'LogLevel ERROR',
    'Subsystem sftp internal-sftp',
    'ForceCommand internal-sftp',
    '',
  ].join('\n');
}

export interface Sshd {
  port: number;
  /** The folder the SFTP cases work in (an absolute path on the server). */
  root: string;
  /** The key sshd accepts for `nobody`, and one it does not know. */
  key: string;
  strangerKey: string;
  stop(): Promise<void>;
}

/** Makes the keys and the files, starts sshd, and waits until it listens. */
export async function startSshd(): Promise<Sshd> {
  const dir = mkdtempSync(join(tmpdir(), 'unseen4-sshd-'));
  chmodSync(dir, 0o755); // nobody's SFTP session reaches `root` through it
  if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { mode: 0o755 });
  execFileSync(findBinary('ssh-keygen'), ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_ed25519')]);
  const agent = keyPair(join(dir, 'agent'));
  const stranger = keyPair(join(dir, 'stranger'));
  writeFileSync(join(dir, 'authorized_keys'), agent.publicKey);
  const root = join(dir, 'root');
  mkdirSync(join(root, 'inbox'), { recursive: true });
  mkdirSync(join(root, 'locked'));
  writeFileSync(join(root, 'payroll.csv'), 'name,salary\n');
  chmodSync(join(root, 'payroll.csv'), 0o600); // root's: nobody may not read it
  writeFileSync(join(root, 'inbox', 'report.csv'), 'id,total\n1,12\n');
  mkdirSync(join(root, 'inbox', 'archive'));
  writeFileSync(join(root, 'inbox', 'archive', 'old.csv'), 'id,total\n');
  for (const p of ['inbox', 'inbox/report.csv', 'inbox/archive', 'inbox/archive/old.csv'])
    chownSync(join(root, p), NOBODY, NOBODY);
  const port = await freePort();
  writeFileSync(join(dir, 'sshd_config'), config(dir, port));
  const server = await spawnServer(findBinary('sshd'), ['-D', '-e', '-f', join(dir, 'sshd_config')], port);
  return {
    port,
    root,
    key: agent.privateKey,
    strangerKey: stranger.privateKey,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
