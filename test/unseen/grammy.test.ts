/** Issue 28's unseen cases for grammy (fixture and cases: ./grammy.ts; expectations: ./grammy.expected.ts). */
import { ratchet } from './ratchet';

ratchet('grammy');
