/** Issue 28's unseen cases for cohere-ai (fixture and cases: ./cohere.ts; expectations: ./cohere.expected.ts). */
import { ratchet } from './ratchet';

ratchet('cohere-ai');
