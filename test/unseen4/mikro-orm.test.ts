/** Issue 38's fourth held-out set for @mikro-orm/core (fixture and cases: ./mikro-orm.ts; expectations: ./mikro-orm.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('@mikro-orm/core');
