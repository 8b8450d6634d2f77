/**
 * What each @azure/storage-blob case should route to. Sources: Azure Storage REST docs, "Blob service error codes"
 * and "Common REST API error codes" (status and code of each), RFC 9110 and docs/DESIGN.md.
 */
import type { ExpectedTable } from './cases';

const NOT_SENT = 'DESIGN.md Phases: a refused connection left nothing; replay-safe for any tool → retry';
const CONNECTING = 'DESIGN.md classes: the TCP connect never completed, nothing was sent → retry';
const AUTH =
  'Azure common error codes: 403 AuthenticationFailed, the signature did not verify (a bad key, not a denied permission) → reauth';
const ALREADY = 'DESIGN.md "Already done is done": a 409 to a create may mean the state holds → read verify first';

export const AZURE_BLOB_EXPECTED: ExpectedTable = {
  'azure-blob.refused.read': { class: 'transient', action: 'retry', source: NOT_SENT },
  'azure-blob.refused.write': { class: 'transient', action: 'retry', applied: 'no', source: NOT_SENT },
  'azure-blob.connect-timeout.read': { class: 'transient', action: 'retry', source: CONNECTING },
  'azure-blob.connect-timeout.write': { class: 'transient', action: 'retry', applied: 'no', source: CONNECTING },
  'azure-blob.answer-timeout.read': {
    class: 'transient',
    action: 'retry',
    source: 'DESIGN.md classes: a read that timed out is transient and replay-safe → retry',
  },
  'azure-blob.answer-timeout.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    source: 'DESIGN.md Phases: the PUT was sent and no answer came → outcome_unknown → reconcile',
  },
  'azure-blob.reset-after-request.write': {
    class: 'outcome_unknown',
    action: 'reconcile',
    applied: 'maybe',
    source: 'DESIGN.md Phases: a connection lost after a write was sent is outcome_unknown → reconcile',
  },
  'azure-blob.wrong-key.read': { class: 'authentication', action: 'reauth', source: AUTH },
  'azure-blob.wrong-key.write': { class: 'authentication', action: 'reauth', applied: 'no', source: AUTH },
  'azure-blob.container-not-found.read': {
    class: 'semantic_rejection',
    action: 'replan',
    source: 'Azure blob error codes: 404 ContainerNotFound; DESIGN.md classes: a 404 → replan',
  },
  'azure-blob.blob-not-found.read': {
    class: 'semantic_rejection',
    action: 'replan',
    source: 'Azure blob error codes: 404 BlobNotFound; DESIGN.md classes: a 404 → replan',
  },
  'azure-blob.container-exists.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    source: `Azure blob error codes: 409 ContainerAlreadyExists; ${ALREADY}`,
  },
  'azure-blob.blob-exists.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    verify: true,
    source: `Azure blob error codes: 409 BlobAlreadyExists (If-None-Match: *); ${ALREADY}`,
  },
  'azure-blob.etag-mismatch.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    source:
      'Azure common error codes: 412 ConditionNotMet (If-Match); RFC 9110 §15.5.13; DESIGN.md classes: 412 → replan',
  },
  'azure-blob.lease-missing.write': {
    class: 'semantic_rejection',
    action: 'replan',
    applied: 'no',
    source: 'Azure blob error codes: 412 LeaseIdMissing, the blob is leased by another writer → replan',
  },
  'azure-blob.invalid-range.read': {
    class: 'invalid_arguments',
    action: 'repair',
    source: 'Azure common error codes: 416 InvalidRange; RFC 9110 §15.5.17: the requested range must change → repair',
  },
};
