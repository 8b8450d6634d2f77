/**
 * What each memjs case should route to (docs/DESIGN.md, "Failure classes and the two axes", "Phases", "Routes";
 * the memcached binary protocol's response statuses, memcached's protocol_binary.txt §3.2 "Response Status").
 */
import type { ExpectedTable } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const CONNECTING = 'DESIGN.md classes: timeout before send is transient; "timed out connecting" sent nothing → retry';

export const MEMJS_EXPECTED: ExpectedTable = {
  'memjs.refused.read': { class: 'transient', action: 'retry', source: NOT_SENT },
  'memjs.refused.write': { class: 'transient', action: 'retry', applied: 'no', source: NOT_SENT },
  'memjs.connect-timeout.read': { class: 'transient', action: 'retry', source: CONNECTING },
  'memjs.connect-timeout.write': { class: 'transient', action: 'retry', applied: 'no', source: CONNECTING },
  'memjs.answer-timeout.read': {
    class: 'transient',
    action: 'retry',
    source: 'DESIGN.md classes: a read that timed out is transient and replay-safe → retry',
  },
  'memjs.answer-timeout.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    source: 'DESIGN.md Phases: the SET was sent and no answer came ("waiting on response") → outcome_unknown',
  },
  'memjs.reset-after-request.read': {
    class: 'transient',
    action: 'retry',
    source: 'DESIGN.md classes: a connection lost on a read is transient; a read is replay-safe → retry',
  },
  'memjs.reset-after-request.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    source: 'DESIGN.md Phases: a connection lost after a write was sent is outcome_unknown → reconcile',
  },
  'memjs.value-too-large.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    source: 'memcached binary status 0x0003 Value too large (item over -I): only a smaller value can pass → repair',
  },
  'memjs.key-too-long.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    source: 'memcached binary status 0x0004 Invalid arguments (key over 250 bytes, protocol.txt "Keys") → repair',
  },
  'memjs.out-of-memory.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source:
      'memcached binary status 0x0082 Out of memory (-M): the item was not stored; DESIGN.md silent, a Temporal user expects a bounded retry',
  },
  'memjs.incr-non-numeric.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    source: 'memcached binary status 0x0006 Incr/Decr on non-numeric value: the stored state refuses the call → replan',
  },
};
