/** Issue 38's fourth held-out set for @supabase/postgrest-js (fixture and cases: ./postgrest-js.ts; expectations: ./postgrest-js.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('@supabase/postgrest-js');
