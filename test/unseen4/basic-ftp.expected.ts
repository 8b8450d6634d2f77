/**
 * What each basic-ftp case should route to. Sources: RFC 959 §4.2 (reply codes: the first digit says whether the
 * action happened — 4yz "the command was not accepted and the requested action did not take place, but the error
 * condition is temporary", 5yz "the command was not accepted and the requested action did not take place"), its
 * §4.2.2 list (421, 530, 550, 552, 553), pure-ftpd's texts, and docs/DESIGN.md. An FTP reply code is read in FTP's
 * table: 553 is "File name not allowed" (here: permission denied), not SMTP's 553.
 */
import type { ExpectedTable4 } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const LOGIN = 'RFC 959 530 "Not logged in" (pure-ftpd "Login authentication failed"); DESIGN.md classes → reauth';
const BUSY =
  'RFC 959 421 "Service not available, closing control connection" (4yz: not taken, temporary) → transient → retry';
const NOT_FOUND = 'RFC 959 550 "File unavailable (e.g., file not found)", ENOENT; DESIGN.md classes: 404-like → replan';

export const BASIC_FTP_EXPECTED: ExpectedTable4 = {
  'basic-ftp.refused.read': { class: 'transient', action: 'retry', harm: 'costly', source: NOT_SENT },
  'basic-ftp.refused.write': { class: 'transient', action: 'retry', applied: 'no', harm: 'costly', source: NOT_SENT },
  'basic-ftp.login-incorrect-530.read': { class: 'authentication', action: 'reauth', harm: 'costly', source: LOGIN },
  'basic-ftp.login-incorrect-530.write': {
    class: 'authentication',
    action: 'reauth',
    applied: 'no',
    harm: 'costly',
    source: LOGIN,
  },
  'basic-ftp.too-many-users-421.read': { class: 'transient', action: 'retry', harm: 'costly', source: BUSY },
  'basic-ftp.too-many-users-421.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    harm: 'costly',
    source: BUSY,
  },
  'basic-ftp.permission-denied-553.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    harm: 'costly',
    source:
      'RFC 959 553 "Requested action not taken. File name not allowed" (pure-ftpd: "Permission denied", EACCES): forbidden, not SMTP 553 → stop',
  },
  'basic-ftp.permission-denied-550.read': {
    class: 'authorization',
    action: 'stop',
    harm: 'costly',
    source: 'RFC 959 550 "File unavailable (e.g., … no access)": "Permission denied" (EACCES); DESIGN.md Routes → stop',
  },
  'basic-ftp.no-such-file-550.read': {
    class: 'semantic_rejection',
    action: 'replan',
    harm: 'costly',
    source: NOT_FOUND,
  },
  'basic-ftp.no-such-file-550.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    harm: 'costly',
    source: `${NOT_FOUND}; 5yz: DELE did not take place`,
  },
  'basic-ftp.quota-552.write': {
    class: 'unrecoverable',
    action: 'escalate',
    applied: 'no',
    harm: 'mild',
    source:
      'RFC 959 552 "Exceeded storage allocation" (pure-ftpd "Quota exceeded … won\'t be saved"); docs/tools.md kinds: quota → escalate',
  },
  'basic-ftp.directory-exists-550.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    harm: 'costly',
    source:
      'RFC 959 550 on MKD, "File exists" (EEXIST): the asked-for state holds; DESIGN.md "Already done is done" → verify first',
  },
  'basic-ftp.reset-after-command.read': {
    class: 'transient',
    action: 'retry',
    harm: 'costly',
    source: 'DESIGN.md classes: a read whose connection was reset after its command left is replay-safe → retry',
  },
  'basic-ftp.reset-after-command.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    harm: 'unsafe',
    source: 'DESIGN.md Phases: a connection lost after a write was sent is outcome_unknown → reconcile',
  },
};
