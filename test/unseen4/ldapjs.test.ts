/** Issue 38's fourth held-out set for ldapjs (fixture and cases: ./ldapjs.ts; expectations: ./ldapjs.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('ldapjs');
