/**
 * ldapts (directory, LDAP v3) against Debian's real OpenLDAP `slapd` (./slapd.ts), through a TCP proxy for lost
 * answers. ldapts raises one class per LDAP result code (RFC 4511 Appendix A), named after it
 * (`InsufficientAccessError`, `NotAllowedOnNonLeafError`, …), with `code` = the result code and the server's
 * diagnostic message, often empty (" Code: 0x32").
 */
import { Attribute, Change, Client } from 'ldapts';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';
import { closedPort, tcpProxy } from '../unseen/net-fixtures';
import { AGENT, BASE, startSlapd } from './slapd';

/** Runs `op` as the agent on a fresh client and always unbinds. */
async function using(url: string, op: (c: Client) => Promise<unknown>, password = AGENT.password): Promise<void> {
  const c = new Client({ url, timeout: 5_000, connectTimeout: 5_000 });
  try {
    await c.bind(AGENT.dn, password);
    await op(c);
  } finally {
    await c.unbind().catch(() => undefined);
  }
}

const replace = (type: string, value: string) =>
  new Change({ operation: 'replace', modification: new Attribute({ type, values: [value] }) });
const person = (uid: string, more: Record<string, string | string[]> = {}) => ({
  objectClass: 'inetOrgPerson',
  uid,
  cn: uid,
  sn: uid,
  ...more,
});

export const ldaptsLibrary: UnseenLibrary = {
  name: 'ldapts',
  kind: 'directory (LDAP)',
  server: 'OpenLDAP slapd 2.5 (Debian), mdb, ACLs and a size limit; a TCP proxy',
  async start() {
    const slapd = await startSlapd();
    const proxy = await tcpProxy(slapd.port);
    const refused = `ldap://127.0.0.1:${await closedPort()}`;
    const url = slapd.url;
    const search = (c: Client) => c.search(`ou=people,${BASE}`, { filter: '(uid=user1)' });
    const addPerson = (uid: string) => (c: Client) => c.add(`uid=${uid},ou=people,${BASE}`, person(uid));
    /** Binds through the proxy, then cuts the connection once the next request reached slapd. */
    const cut = (op: (c: Client) => Promise<unknown>) => () =>
      using(`ldap://127.0.0.1:${proxy.port}`, async (c) => {
        proxy.mode = 'reset_after_request';
        try {
          await op(c);
        } finally {
          proxy.mode = 'forward';
        }
      });
    const one = (name: string, effect: Effect, run: () => Promise<unknown>, verify?: 'holds'): UnseenCase => ({
      id: `ldapts.${name}.${effect}`,
      effect,
      run,
      ...(verify ? { verify } : {}),
    });
    const cases: UnseenCase[] = [
      one('refused', 'read', () => using(refused, search)),
      one('refused', 'write', () => using(refused, addPerson('ada'))),
      one('invalid-credentials-49', 'read', () => using(url, search, 'wrong-password')),
      one('invalid-credentials-49', 'write', () => using(url, addPerson('ada'), 'wrong-password')),
      one('size-limit-exceeded-4', 'read', () =>
        using(url, (c) => c.search(`ou=people,${BASE}`, { filter: '(objectClass=inetOrgPerson)' })),
      ),
      one('no-such-object-32', 'read', () => using(url, (c) => c.search(`ou=billing,${BASE}`, { filter: '(uid=*)' }))),
      one('no-such-object-32', 'write', () => using(url, (c) => c.del(`uid=ghost,ou=people,${BASE}`))),
      one('already-exists-68', 'write', () => using(url, addPerson('user1')), 'holds'),
      one('object-class-violation-65', 'write', () =>
        using(url, (c) =>
          c.add(`uid=grace,ou=people,${BASE}`, { objectClass: 'inetOrgPerson', uid: 'grace', cn: 'g' }),
        ),
      ),
      one('invalid-syntax-21', 'write', () =>
        using(url, (c) =>
          c.add(`uid=linus,ou=people,${BASE}`, {
            ...person('linus'),
            objectClass: ['inetOrgPerson', 'posixAccount'],
            uidNumber: 'one thousand',
            gidNumber: '100',
            homeDirectory: '/home/linus',
          }),
        ),
      ),
      one('not-allowed-on-non-leaf-66', 'write', () => using(url, (c) => c.del(`ou=ops,ou=teams,${BASE}`))),
      one('insufficient-access-50', 'write', () =>
        using(url, (c) => c.modify(`uid=policy,ou=locked,${BASE}`, [replace('sn', 'changed')])),
      ),
      one('insufficient-access-50', 'read', () =>
        using(url, (c) => c.compare(`uid=user1,ou=people,${BASE}`, 'userPassword', 'pw-1')),
      ),
      one('reset-after-request', 'read', cut(search)),
      one('reset-after-request', 'write', cut(addPerson('margaret'))),
    ];
    return {
      cases,
      stop: async () => {
        await proxy.stop();
        await slapd.stop();
      },
    };
  },
};
