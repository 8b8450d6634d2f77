/** Issue 38's fourth held-out set for amqplib (fixture and cases: ./amqplib.ts; expectations: ./amqplib.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('amqplib');
