/** Issue 28's unseen cases for nats (fixture and cases: ./nats.ts; expectations: ./nats.expected.ts). */
import { ratchet } from './ratchet';

ratchet('nats');
