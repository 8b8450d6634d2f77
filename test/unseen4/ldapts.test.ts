/** Issue 38's fourth held-out set for ldapts (fixture and cases: ./ldapts.ts; expectations: ./ldapts.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('ldapts');
