/** Issue 38's fourth held-out set for graphql-request (fixture and cases: ./graphql-request.ts; expectations: ./graphql-request.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('graphql-request');
