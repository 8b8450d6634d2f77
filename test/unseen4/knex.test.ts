/** Issue 38's fourth held-out set for knex (fixture and cases: ./knex.ts; expectations: ./knex.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('knex');
