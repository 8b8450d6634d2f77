/** Issue 28's unseen cases for @azure/storage-blob (fixture and cases: ./azure-blob.ts; expectations: ./azure-blob.expected.ts). */
import { ratchet } from './ratchet';

ratchet('@azure/storage-blob');
