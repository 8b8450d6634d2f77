/** Issue 28's unseen cases for words (fixture and cases: ./words.ts; expectations: ./words.expected.ts). */
import { ratchet } from './ratchet';

ratchet('words');
