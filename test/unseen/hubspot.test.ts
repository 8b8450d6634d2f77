/** Issue 28's unseen cases for @hubspot/api-client (fixture and cases: ./hubspot.ts; expectations: ./hubspot.expected.ts). */
import { ratchet } from './ratchet';

ratchet('@hubspot/api-client');
