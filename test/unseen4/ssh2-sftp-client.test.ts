/** Issue 38's fourth held-out set for ssh2-sftp-client (fixture and cases: ./ssh2-sftp-client.ts; expectations: ./ssh2-sftp-client.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('ssh2-sftp-client');
