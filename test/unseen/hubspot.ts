/**
 * @hubspot/api-client (CRM) against a loopback server speaking HubSpot's documented error body (HubSpot API docs,
 * "Error handling": `{ status: 'error', message, correlationId, category, errors[] }`; rate limits: 429 with
 * `errorType: 'RATE_LIMIT'` and `policyName`). The generated client raises `ApiException` with `code` = the HTTP
 * status, `body` and `headers`. Its retries are off (`numberOfApiCallRetries: 0`).
 */
import { Client } from '@hubspot/api-client';
import type { UnseenCase, UnseenLibrary } from './cases';
import { loopbackCases, startLoopback, type Answer } from './loopback';
import { closedPort } from './net-fixtures';

const hs = (status: number, body: Record<string, unknown>, headers?: Record<string, string>): Answer => ({
  status,
  ...(headers ? { headers } : {}),
  body: { status: 'error', correlationId: '8b3f0d4e-1c2a-4b7e-9a51-3f1c2d4e5f60', ...body },
});

export const hubspotLibrary: UnseenLibrary = {
  name: '@hubspot/api-client',
  kind: 'CRM',
  server: "loopback HTTP speaking HubSpot's CRM API errors",
  async start() {
    const server = await startLoopback();
    const refused = `http://127.0.0.1:${await closedPort()}`;
    const client = (basePath = server.url) =>
      new Client({ accessToken: 'pat-na1-token-never-shown', basePath, numberOfApiCallRetries: 0 });
    const get = (c = client()) => c.crm.contacts.basicApi.getById('42');
    const create = (c = client()) =>
      c.crm.contacts.basicApi.create({ properties: { email: 'ada@example.org', firstname: 'Ada' }, associations: [] });
    const one = loopbackCases('hubspot', server);
    const limit = hs(
      429,
      { message: 'You have reached your secondly limit.', errorType: 'RATE_LIMIT', policyName: 'SECONDLY' },
      { 'x-hubspot-ratelimit-secondly': '10', 'x-hubspot-ratelimit-secondly-remaining': '0' },
    );
    const scopes = hs(403, {
      message: "This app hasn't been granted all required scopes to make this call.",
      category: 'MISSING_SCOPES',
      errors: [
        {
          message: 'One or more of the following scopes are required.',
          context: { requiredGranularScopes: ['crm.objects.contacts.write'] },
        },
      ],
    });
    const cases: UnseenCase[] = [
      one('refused', 'read', undefined, () => get(client(refused))),
      one('refused', 'write', undefined, () => create(client(refused))),
      one('rate-limit', 'read', limit, () => get()),
      one('rate-limit', 'write', limit, () => create()),
      one(
        'expired-token',
        'read',
        hs(401, {
          message: 'The OAuth token used to make this call expired 2 hour(s) ago.',
          category: 'EXPIRED_AUTHENTICATION',
        }),
        () => get(),
      ),
      one('missing-scopes', 'write', scopes, () => create()),
      one('object-not-found', 'read', hs(404, { message: 'resource not found', category: 'OBJECT_NOT_FOUND' }), () =>
        get(),
      ),
      one(
        'contact-exists',
        'write',
        hs(409, { message: 'Contact already exists. Existing ID: 12345', category: 'CONFLICT' }),
        () => create(),
        'holds',
      ),
      one(
        'invalid-email',
        'write',
        hs(400, {
          message:
            'Property values were not valid: [{"isValid":false,"message":"Email address ada@ is invalid","error":"INVALID_EMAIL","name":"email"}]',
          category: 'VALIDATION_ERROR',
        }),
        () => create(),
      ),
      one(
        'unknown-property',
        'write',
        hs(400, {
          message:
            'Property values were not valid: [{"isValid":false,"message":"Property \\"favorite_color\\" does not exist","error":"PROPERTY_DOESNT_EXIST","name":"favorite_color"}]',
          category: 'VALIDATION_ERROR',
        }),
        () => create(),
      ),
      one('gateway-timeout', 'read', hs(504, { message: 'Gateway timeout', category: 'TIMEOUT' }), () => get()),
      one('internal-error', 'write', hs(500, { message: 'internal error', category: 'INTERNAL_ERROR' }), () =>
        create(),
      ),
    ];
    return { cases, stop: server.stop };
  },
};
