/**
 * What each @elastic/elasticsearch case should route to. Sources: Elasticsearch docs ("Common options › Error
 * responses"; "Rejected requests": a 429 `es_rejected_execution_exception` asks the client to retry with backoff;
 * "Circuit breaker errors": 429, retry; "Fix watermark errors": the flood-stage block answers 429 and lifts itself
 * when disk frees; "Optimistic concurrency control": 409 version_conflict_engine_exception), RFC 9110, docs/DESIGN.md.
 */
import type { ExpectedTable } from './cases';

const RATE = 'Elasticsearch docs: 429 rejected/circuit-breaking, nothing executed, retry with backoff → retry';

export const ELASTICSEARCH_EXPECTED: ExpectedTable = {
  'elasticsearch.refused.read': {
    class: 'transient',
    action: 'retry',
    source: 'DESIGN.md Phases: refused connection → retry',
  },
  'elasticsearch.refused.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source: 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry',
  },
  'elasticsearch.answer-timeout.read': {
    class: 'transient',
    action: 'retry',
    source: 'DESIGN.md classes: a read that timed out is transient and replay-safe → retry',
  },
  'elasticsearch.answer-timeout.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    source: 'DESIGN.md Phases: the index request was sent and no answer came → outcome_unknown → reconcile',
  },
  'elasticsearch.index-not-found.read': {
    class: 'semantic_rejection',
    action: 'replan',
    source: 'Elasticsearch: 404 index_not_found_exception; DESIGN.md classes: a 404 → replan',
  },
  'elasticsearch.rejected-execution.read': { class: 'transient', action: 'retry', source: RATE },
  'elasticsearch.rejected-execution.write': { class: 'transient', action: 'retry', applied: 'no', source: RATE },
  'elasticsearch.circuit-breaking.read': { class: 'transient', action: 'retry', source: RATE },
  'elasticsearch.flood-stage-block.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source:
      'Elasticsearch "Fix watermark errors": 429 cluster_block_exception, the write was refused and the block lifts → retry',
  },
  'elasticsearch.document-exists.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    source: 'Elasticsearch: 409 "document already exists" on op_type=create; DESIGN.md "Already done is done" → verify',
  },
  'elasticsearch.mapping-parse.write': {
    class: 'invalid_arguments',
    action: 'repair',
    applied: 'no',
    source:
      'Elasticsearch: 400 document_parsing_exception names the field [total] → DESIGN.md: a 400 naming a field → repair',
  },
  'elasticsearch.result-window.read': {
    class: 'invalid_arguments',
    action: 'repair',
    source: 'Elasticsearch index.max_result_window: 400 illegal_argument_exception, from + size must shrink → repair',
  },
  'elasticsearch.bad-api-key.read': {
    class: 'authentication',
    action: 'reauth',
    source: 'Elasticsearch security: 401 security_exception with WWW-Authenticate; RFC 9110 §15.5.2 → reauth',
  },
  'elasticsearch.unauthorized-action.write': {
    class: 'authorization',
    action: 'stop',
    applied: 'no',
    source:
      'Elasticsearch security: 403 security_exception "is unauthorized for API key" → DESIGN.md Routes: 403 → stop',
  },
  'elasticsearch.unavailable-shards.write': {
    class: 'transient',
    action: 'retry',
    applied: 'no',
    source:
      'RFC 9110 §15.6.4: 503, the server could not handle the request (primary shard not active: not indexed) → retry',
  },
  'elasticsearch.all-shards-failed.read': {
    class: 'transient',
    action: 'retry',
    source: 'RFC 9110 §15.6.4: 503 on a read; DESIGN.md classes: 503 is transient → retry',
  },
};
