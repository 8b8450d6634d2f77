/** Issue 38's fourth held-out set for basic-ftp (fixture and cases: ./basic-ftp.ts; expectations: ./basic-ftp.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('basic-ftp');
