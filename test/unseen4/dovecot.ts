/**
 * Debian's real Dovecot (`dovecot-imapd` 2.3) in the foreground (`dovecot -F -c <conf>`) with its own config, runtime
 * and state dirs in a temp dir, one IMAP listener on a free loopback port, no TLS. Users come from a passwd-file
 * (`{PLAIN}` passwords), mail is Maildir owned by `nobody`; the ACL plugin reads per-mailbox global ACL files and
 * the quota plugin a 2 KiB storage quota. Sources: Dovecot docs, "Quick Configuration", "Authentication / Password
 * Databases / passwd-file", "Access Control Lists" (global ACL directory: one file per mailbox, `user=<name>
 * <rights>`; `l` lookup, `r` read, `i` insert), "Quota" (`quota = maildir`, `quota_rule = *:storage=…`),
 * `auth_failure_delay` (0 here: Dovecot otherwise answers a failed login after 2 s) and "Authentication penalty"
 * (off here: the `anvil-auth-penalty` listener with mode 0; Dovecot otherwise delays each login from an IP after
 * failed ones, 2 s doubling up to 15 s).
 *
 * The agent may list `Payroll` but not read it, may read `Reports` but not append to it, and owns `INBOX` (and the
 * folders it creates); `Archive` does not exist. `ghost`'s password database is down (a checkpassword program that
 * answers "temporary problem").
 */
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBinary, freePort, spawnServer } from '../unseen/net-fixtures';

export const AGENT = { user: 'agent', pass: 'agent-password' };
/** A user whose password database is down. */
export const GHOST = { user: 'ghost', pass: 'ghost-password' };
/** The agent's storage quota, in bytes (`quota_rule = *:storage=2K`). */
export const QUOTA_BYTES = 2_048;
const NOBODY = 65534;

function config(dir: string, port: number): string {
  return `
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:${dir}/mail/%u
mail_plugins = acl quota
protocol imap {
  mail_plugins = $mail_plugins imap_acl imap_quota
}
namespace inbox {
  inbox = yes
  separator = /
  mailbox Drafts {
    auto = create
  }
  mailbox Sent {
    auto = create
  }
  mailbox Payroll {
    auto = create
  }
  mailbox Reports {
    auto = create
  }
}
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/passwd
  username_filter = !${GHOST.user}
}
passdb {
  driver = checkpassword
  args = ${dir}/passdb-down
  username_filter = ${GHOST.user}
}
userdb {
  driver = static
  args = uid=${NOBODY} gid=${NOBODY} home=${dir}/mail/%u
}
plugin {
  acl = vfile:${dir}/acl
  quota = maildir:User quota
  quota_rule = *:storage=${QUOTA_BYTES / 1024}K
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
`;
}

/** Starts Dovecot and waits until it takes IMAP connections. @returns its port and a stop that removes the dir. */
export async function startDovecot(): Promise<{ port: number; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'unseen4-dovecot-'));
  chmodSync(dir, 0o755); // Dovecot's login and auth processes (users dovenull, dovecot) reach their sockets in it
  for (const sub of ['run', 'state', 'mail', 'acl']) mkdirSync(join(dir, sub));
  chownSync(join(dir, 'mail'), NOBODY, NOBODY);
  writeFileSync(join(dir, 'passwd'), `${AGENT.user}:{PLAIN}${AGENT.pass}\n`);
  // `ghost`'s passdb is down: a checkpassword program that exits 111, "temporary problem" (checkpassword's
  // interface; Dovecot docs, "Checkpassword": 111 is an internal failure).
  writeFileSync(join(dir, 'passdb-down'), '#!/bin/sh\nexit 111\n', { mode: 0o755 });
  writeFileSync(join(dir, 'acl', 'Payroll'), `user=${AGENT.user} l\n`);
  writeFileSync(join(dir, 'acl', 'Reports'), `user=${AGENT.user} lr\n`);
  const port = await freePort();
  writeFileSync(join(dir, 'dovecot.conf'), config(dir, port));
  const server = await spawnServer(findBinary('dovecot'), ['-F', '-c', join(dir, 'dovecot.conf')], port);
  return {
    port,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
