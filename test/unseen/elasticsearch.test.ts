/** Issue 28's unseen cases for @elastic/elasticsearch (fixture and cases: ./elasticsearch.ts; expectations: ./elasticsearch.expected.ts). */
import { ratchet } from './ratchet';

ratchet('@elastic/elasticsearch');
