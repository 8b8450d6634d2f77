/** Issue 38's fourth held-out set for mqtt (fixture and cases: ./mqtt.ts; expectations: ./mqtt.expected.ts). */
import { ratchet4 } from './ratchet';

ratchet4('mqtt');
