/** Issue 28's unseen cases for memjs (fixture and cases: ./memjs.ts; expectations: ./memjs.expected.ts). */
import { ratchet } from './ratchet';

ratchet('memjs');
