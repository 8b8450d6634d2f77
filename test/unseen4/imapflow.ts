/**
 * imapflow (IMAP4rev1 mail access) against Debian's real Dovecot (./dovecot.ts), through a TCP proxy for lost
 * answers. imapflow raises `Error("Command failed")` for a tagged NO or BAD, with `responseStatus`, the server's
 * `responseText` and, when the server sent one, `serverResponseCode`: the response code in brackets (RFC 3501
 * §7.1: TRYCREATE; RFC 5530: AUTHENTICATIONFAILED, UNAVAILABLE, NOPERM, NONEXISTENT, ALREADYEXISTS, OVERQUOTA,
 * CANNOT); a failed LOGIN also sets `authenticationFailed: true`, whatever the code. Node's socket errors pass
 * through; a connection lost under a command rejects it with `code: 'NoConnection'` ("Connection not available").
 */
import { ImapFlow } from 'imapflow';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';
import { closedPort, tcpProxy } from '../unseen/net-fixtures';
import { AGENT, GHOST, QUOTA_BYTES, startDovecot } from './dovecot';

/** Logs in on a fresh client (no logger, no TLS), runs `op`, and always logs out. */
async function using(port: number, op: (c: ImapFlow) => Promise<unknown>, auth = AGENT): Promise<void> {
  const c = new ImapFlow({ host: '127.0.0.1', port, secure: false, auth, logger: false, connectionTimeout: 5_000 });
  c.on('error', () => undefined); // a lost connection also rejects the command under way
  try {
    await c.connect();
    await op(c);
  } finally {
    await c.logout().catch(() => undefined);
  }
}

/** An RFC 5322 message of about `bytes` bytes. */
const message = (bytes = 64) =>
  `From: agent@example.org\r\nTo: ops@example.org\r\nSubject: report\r\n\r\n${'x'.repeat(bytes)}\r\n`;
const append =
  (mailbox: string, bytes?: number) =>
  (c: ImapFlow): Promise<unknown> =>
    c.append(mailbox, message(bytes));
const open = (mailbox: string) => (c: ImapFlow) => c.mailboxOpen(mailbox, { readOnly: true });

export const imapflowLibrary: UnseenLibrary = {
  name: 'imapflow',
  kind: 'mail access (IMAP)',
  server: 'Dovecot 2.3 (Debian): passwd-file and a passdb that is down, global ACLs, a 2 KiB maildir quota',
  async start() {
    const dovecot = await startDovecot();
    const proxy = await tcpProxy(dovecot.port);
    const port = dovecot.port;
    const refused = await closedPort();
    await using(port, async (c) => {
      await c.mailboxCreate('Drafts');
      await c.mailboxCreate('Sent');
    });
    /** Logs in through the proxy, then cuts the connection once the next command reached Dovecot. */
    const cut = (op: (c: ImapFlow) => Promise<unknown>) => () =>
      using(proxy.port, async (c) => {
        proxy.mode = 'reset_after_request';
        try {
          await op(c);
        } finally {
          proxy.mode = 'forward';
        }
      });
    const wrong = { ...AGENT, pass: 'wrong-password' };
    const one = (name: string, effect: Effect, run: () => Promise<unknown>): UnseenCase => ({
      id: `imapflow.${name}.${effect}`,
      effect,
      run,
    });
    const cases: UnseenCase[] = [
      one('refused', 'read', () => using(refused, open('INBOX'))),
      one('refused', 'write', () => using(refused, append('Drafts'))),
      one('authenticationfailed', 'read', () => using(port, open('INBOX'), wrong)),
      one('authenticationfailed', 'write', () => using(port, append('Drafts'), wrong)),
      one('unavailable', 'read', () => using(port, open('INBOX'), GHOST)),
      one('unavailable', 'write', () => using(port, append('Drafts'), GHOST)),
      one('noperm', 'read', () => using(port, open('Payroll'))),
      one('noperm', 'write', () => using(port, append('Reports'))),
      one('mailbox-does-not-exist', 'read', () => using(port, open('Archive'))),
      one('nonexistent', 'write', () => using(port, (c) => c.mailboxDelete('Archive'))),
      one('trycreate', 'write', () => using(port, append('Archive'))),
      one('alreadyexists', 'write', () => using(port, (c) => c.mailboxRename('Drafts', 'Sent'))),
      one('overquota', 'write', () => using(port, append('INBOX', 2 * QUOTA_BYTES))),
      one('cannot-name-too-long', 'write', () => using(port, (c) => c.mailboxCreate(`Reports-${'q'.repeat(300)}`))),
      one('reset-after-request', 'read', cut(open('INBOX'))),
      one('reset-after-request', 'write', cut(append('Drafts'))),
    ];
    return {
      cases,
      stop: async () => {
        await proxy.stop();
        await dovecot.stop();
      },
    };
  },
};
