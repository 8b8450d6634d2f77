/**
 * ldapjs (directory, LDAP v3; the callback client) against the same real `slapd` as ldapts (./slapd.ts). ldapjs
 * raises one class per LDAP result code, named after the result (`InsufficientAccessRightsError`,
 * `NotAllowedOnNonLeafError`, `EntryAlreadyExistsError`, …), with `code` = the result code and `lde_message` = the
 * server's diagnostic; connection failures come as Node's socket errors on the client's `error`/`connectError`.
 */
import ldap from 'ldapjs';
import type { Effect, UnseenCase, UnseenLibrary } from '../unseen/cases';
import { closedPort } from '../unseen/net-fixtures';
import { AGENT, BASE, startSlapd } from './slapd';

type Op = (c: ldap.Client, done: (err: Error | null) => void) => void;

/** Binds as the agent on a fresh client, runs `op`, and always destroys the client. Rejects with what ldapjs gave. */
function using(url: string, op: Op, password = AGENT.password): Promise<void> {
  const c = ldap.createClient({ url, connectTimeout: 5_000, timeout: 5_000, reconnect: false });
  return new Promise<void>((resolve, reject) => {
    c.on('error', reject);
    c.on('connectError', reject);
    c.bind(AGENT.dn, password, (err) => {
      if (err) return reject(err);
      op(c, (e) => (e ? reject(e) : resolve()));
    });
  }).finally(() => c.destroy());
}

/** A search that reads every entry (an error comes on the result stream). */
const search =
  (base: string, filter: string): Op =>
  (c, done) =>
    c.search(base, { filter, scope: 'sub' }, (err, res) => {
      if (err) return done(err);
      res.on('error', done);
      res.on('end', () => done(null));
    });
const person = (uid: string) => ({ objectClass: 'inetOrgPerson', uid, cn: uid, sn: uid });

export const ldapjsLibrary: UnseenLibrary = {
  name: 'ldapjs',
  kind: 'directory (LDAP)',
  server: 'OpenLDAP slapd 2.5 (Debian), mdb, ACLs and a size limit',
  async start() {
    const slapd = await startSlapd();
    const url = slapd.url;
    const refused = `ldap://127.0.0.1:${await closedPort()}`;
    const readUser = search(`ou=people,${BASE}`, '(uid=user1)');
    const addPerson =
      (uid: string): Op =>
      (c, done) =>
        c.add(`uid=${uid},ou=people,${BASE}`, person(uid), done);
    const one = (name: string, effect: Effect, run: () => Promise<unknown>, verify?: 'holds'): UnseenCase => ({
      id: `ldapjs.${name}.${effect}`,
      effect,
      run,
      ...(verify ? { verify } : {}),
    });
    const cases: UnseenCase[] = [
      one('refused', 'read', () => using(refused, readUser)),
      one('refused', 'write', () => using(refused, addPerson('ada'))),
      one('invalid-credentials-49', 'read', () => using(url, readUser, 'wrong-password')),
      one('size-limit-exceeded-4', 'read', () =>
        using(url, search(`ou=people,${BASE}`, '(objectClass=inetOrgPerson)')),
      ),
      one('no-such-object-32', 'read', () => using(url, search(`ou=billing,${BASE}`, '(uid=*)'))),
      one('already-exists-68', 'write', () => using(url, addPerson('user2')), 'holds'),
      one('object-class-violation-65', 'write', () =>
        using(url, (c, done) =>
          c.add(`uid=grace,ou=people,${BASE}`, { objectClass: 'inetOrgPerson', uid: 'grace', cn: 'g' }, done),
        ),
      ),
      one('not-allowed-on-non-leaf-66', 'write', () => using(url, (c, done) => c.del(`ou=ops,ou=teams,${BASE}`, done))),
      one('insufficient-access-rights-50', 'write', () =>
        using(url, (c, done) =>
          c.modify(
            `uid=policy,ou=locked,${BASE}`,
            new ldap.Change({ operation: 'replace', modification: new ldap.Attribute({ type: 'sn', values: ['x'] }) }),
            done,
          ),
        ),
      ),
      one('insufficient-access-rights-50', 'read', () =>
        using(url, (c, done) => c.compare(`uid=user1,ou=people,${BASE}`, 'userPassword', 'pw-1', (e) => done(e))),
      ),
    ];
    return { cases, stop: slapd.stop };
  },
};
