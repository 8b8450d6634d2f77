/**
 * @elastic/elasticsearch (search) against a loopback server speaking Elasticsearch's REST error format (Elasticsearch
 * docs, "Common options › Error responses": `{ error: { root_cause, type, reason }, status }`) with the
 * `x-elastic-product: Elasticsearch` header the client checks. The client raises `ResponseError` (`meta.statusCode`,
 * `body.error.type`), `ConnectionError` and `TimeoutError`. Its retries are off (`maxRetries: 0`).
 */
import { Client } from '@elastic/elasticsearch';
import type { UnseenCase, UnseenLibrary } from './cases';
import { loopbackCases, startLoopback, type Answer } from './loopback';
import { closedPort } from './net-fixtures';

/** An Elasticsearch error body (docs: "Error responses"). */
const es = (status: number, type: string, reason: string, headers?: Record<string, string>): Answer => ({
  status,
  ...(headers ? { headers } : {}),
  body: { error: { root_cause: [{ type, reason }], type, reason }, status },
});

export const elasticsearchLibrary: UnseenLibrary = {
  name: '@elastic/elasticsearch',
  kind: 'search',
  server: 'loopback HTTP speaking the Elasticsearch REST error format',
  async start() {
    const server = await startLoopback({ 'x-elastic-product': 'Elasticsearch' });
    const refused = `http://127.0.0.1:${await closedPort()}`;
    const client = (node = server.url) =>
      new Client({ node, maxRetries: 0, requestTimeout: 1_000, auth: { apiKey: 'ZXMtYXBpLWtleS1uZXZlci1zaG93bg==' } });
    const search = (c = client()) => c.search({ index: 'orders', query: { match: { customer: 'ada' } } });
    const index = (c = client()) => c.index({ index: 'orders', id: 'o-1', document: { customer: 'ada', total: 12.5 } });
    const create = () => client().create({ index: 'orders', id: 'o-1', document: { customer: 'ada', total: 12.5 } });
    const one = loopbackCases('elasticsearch', server);
    const rejected = es(
      429,
      'es_rejected_execution_exception',
      'rejected execution of coordinating operation [shard_detail=[orders][0][P]]',
    );
    const cases: UnseenCase[] = [
      one('refused', 'read', undefined, () => search(client(refused))),
      one('refused', 'write', undefined, () => index(client(refused))),
      one('answer-timeout', 'read', { status: 200, hang: true }, () => search()),
      one('answer-timeout', 'write', { status: 200, hang: true }, () => index()),
      one('index-not-found', 'read', es(404, 'index_not_found_exception', 'no such index [orders]'), () => search()),
      one('rejected-execution', 'read', rejected, () => search()),
      one('rejected-execution', 'write', rejected, () => index()),
      one(
        'circuit-breaking',
        'read',
        es(
          429,
          'circuit_breaking_exception',
          '[parent] Data too large, data for [<http_request>] would be [1023mb], which is larger than the limit of [1020mb]',
        ),
        () => search(),
      ),
      one(
        'flood-stage-block',
        'write',
        es(
          429,
          'cluster_block_exception',
          'index [orders] blocked by: [TOO_MANY_REQUESTS/12/disk usage exceeded flood-stage watermark, index has read-only-allow-delete block];',
        ),
        () => index(),
      ),
      one(
        'document-exists',
        'write',
        es(
          409,
          'version_conflict_engine_exception',
          '[o-1]: version conflict, document already exists (current version [1])',
        ),
        create,
        'holds',
      ),
      one(
        'mapping-parse',
        'write',
        es(
          400,
          'document_parsing_exception',
          "[1:33] failed to parse field [total] of type [float] in document with id 'o-1'. Preview of field's value: 'twelve'",
        ),
        () => index(),
      ),
      one(
        'result-window',
        'read',
        es(
          400,
          'illegal_argument_exception',
          'Result window is too large, from + size must be less than or equal to: [10000] but was [20000].',
        ),
        () => search(),
      ),
      one(
        'bad-api-key',
        'read',
        es(
          401,
          'security_exception',
          'unable to authenticate with provided credentials and anonymous access is not allowed for this request',
          { 'www-authenticate': 'ApiKey' },
        ),
        () => search(),
      ),
      one(
        'unauthorized-action',
        'write',
        es(
          403,
          'security_exception',
          'action [indices:data/write/index] is unauthorized for API key id [k1] of user [agent] on indices [orders], this action is granted by the index privileges [create_doc,create,index,write,all]',
        ),
        () => index(),
      ),
      one(
        'unavailable-shards',
        'write',
        es(503, 'unavailable_shards_exception', '[orders][0] primary shard is not active Timeout: [1m]'),
        () => index(),
      ),
      one('all-shards-failed', 'read', es(503, 'search_phase_execution_exception', 'all shards failed'), () =>
        search(),
      ),
    ];
    return { cases, stop: server.stop };
  },
};
