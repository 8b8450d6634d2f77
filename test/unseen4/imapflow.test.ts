/** Issue 38's fourth held-out set for imapflow (fixture and cases: ./imapflow.ts; expectations: ./imapflow.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('imapflow');
