/**
 * What each ssh2-sftp-client case should route to. Sources: draft-ietf-secsh-filexfer-02 (SFTP version 3, the
 * version OpenSSH speaks) §7 "Responses from the Server to the Client": every request is answered by SSH_FXP_STATUS
 * unless it succeeded with data; SSH_FX_NO_SUCH_FILE (2) "a reference is made to a file which should exist but
 * doesn't", SSH_FX_PERMISSION_DENIED (3) "the authenticated user does not have sufficient permissions to perform
 * the operation"; RFC 4252 §5.1 (SSH_MSG_USERAUTH_FAILURE: the key was refused, no session opened), and
 * docs/DESIGN.md. An SFTP status code is read in SFTP's table: 2 is not errno ENOENT's number by chance, nor LDAP's
 * protocolError; 3 is not ESRCH nor LDAP's timeLimitExceeded.
 */
import type { ExpectedTable4 } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const KEY =
  'RFC 4252 §5.1 SSH_MSG_USERAUTH_FAILURE ("All configured authentication methods failed"): the credential (a key) was refused; DESIGN.md classes → reauth';
const NO_SUCH_FILE =
  'SFTP v3 §7 SSH_FX_NO_SUCH_FILE (2): the file does not exist; DESIGN.md classes: 404-like → replan';
const DENIED =
  'SFTP v3 §7 SSH_FX_PERMISSION_DENIED (3): "does not have sufficient permissions to perform the operation"; DESIGN.md Routes → stop';

export const SSH2_SFTP_CLIENT_EXPECTED: ExpectedTable4 = {
  'ssh2-sftp-client.refused.read': { class: 'transient', action: 'retry', harm: 'costly', source: NOT_SENT },
  'ssh2-sftp-client.refused.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    harm: 'costly',
    source: NOT_SENT,
  },
  'ssh2-sftp-client.key-refused.read': { class: 'authentication', action: 'reauth', harm: 'costly', source: KEY },
  'ssh2-sftp-client.key-refused.write': {
    class: 'authentication',
    action: 'reauth',
    applied: 'no',
    harm: 'costly',
    source: `${KEY}; no session, nothing written`,
  },
  'ssh2-sftp-client.no-such-file-2.read': {
    class: 'semantic_rejection',
    action: 'replan',
    harm: 'costly',
    source: NO_SUCH_FILE,
  },
  'ssh2-sftp-client.no-such-file-2.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source: `${NO_SUCH_FILE}; SSH_FXP_REMOVE answered with a status: nothing was removed`,
  },
  'ssh2-sftp-client.permission-denied-3.read': {
    class: 'authorization',
    action: 'stop',
    harm: 'costly',
    source: DENIED,
  },
  'ssh2-sftp-client.permission-denied-3.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    harm: 'costly',
    source: `${DENIED}; SSH_FXP_OPEN for writing was refused, nothing written`,
  },
  'ssh2-sftp-client.failure-4.write': {
    class: 'unrecoverable',
    action: 'escalate',
    applied: 'no',
    harm: 'mild',
    source:
      'SFTP v3 §7 SSH_FX_FAILURE (4): "An error occurred, but no more specific error code exists" (OpenSSH: rmdir of a folder that is not empty): the server answered the request with a failure, so nothing was removed (issue 38: a refusal is a refusal, not outcome_unknown), and nothing says what to change → escalate',
  },
  'ssh2-sftp-client.reset-after-request.read': {
    class: 'transient',
    action: 'retry',
    harm: 'costly',
    source: 'DESIGN.md classes: a read whose connection was reset after its request left is replay-safe → retry',
  },
  'ssh2-sftp-client.reset-after-request.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    harm: 'unsafe',
    source: 'DESIGN.md Phases: a connection lost after an upload was sent is outcome_unknown → reconcile',
  },
};
