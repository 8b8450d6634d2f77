/**
 * Debian's real OpenLDAP `slapd` on a free port with a temp-dir mdb database (slapd.conf(5), slapd.access(5)),
 * seeded by its root DN. For the LDAP clients of this set (ldapts, ldapjs): the agent may write everything but
 * `ou=locked`, may not compare anyone's password, and sees at most 5 entries a search (`sizelimit 5`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'ldapts';
import { findBinary, freePort, spawnServer } from '../unseen/net-fixtures';

export const BASE = 'dc=example,dc=org';
export const ADMIN = { dn: `cn=admin,${BASE}`, password: 'admin-password' };
export const AGENT = { dn: `uid=agent,ou=people,${BASE}`, password: 'agent-password' };

function config(dir: string): string {
  return `
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
pidfile ${join(dir, 'slapd.pid')}
modulepath /usr/lib/ldap
moduleload back_mdb
sizelimit 5
database mdb
suffix "${BASE}"
rootdn "${ADMIN.dn}"
rootpw ${ADMIN.password}
directory ${join(dir, 'db')}
access to attrs=userPassword
  by self write
  by anonymous auth
  by * none
access to dn.subtree="ou=locked,${BASE}"
  by dn.exact="${ADMIN.dn}" write
  by * read
access to *
  by dn.exact="${AGENT.dn}" write
  by * read
`;
}

const person = (uid: string, more: Record<string, string> = {}) => ({
  objectClass: ['inetOrgPerson'],
  uid,
  cn: uid,
  sn: uid,
  ...more,
});

/** The seed: people (8 of them, over the size limit), a locked unit, a team with a member (not a leaf). */
async function seed(url: string): Promise<void> {
  const c = new Client({ url });
  try {
    await c.bind(ADMIN.dn, ADMIN.password);
    await c.add(BASE, { objectClass: ['dcObject', 'organization'], dc: 'example', o: 'Example' });
    for (const ou of ['people', 'locked', 'teams'])
      await c.add(`ou=${ou},${BASE}`, { objectClass: 'organizationalUnit', ou });
    await c.add(AGENT.dn, person('agent', { userPassword: AGENT.password }));
    for (let i = 1; i <= 7; i++)
      await c.add(`uid=user${i},ou=people,${BASE}`, person(`user${i}`, { userPassword: `pw-${i}` }));
    await c.add(`ou=ops,ou=teams,${BASE}`, { objectClass: 'organizationalUnit', ou: 'ops' });
    await c.add(`uid=oncall,ou=ops,ou=teams,${BASE}`, person('oncall'));
    await c.add(`uid=policy,ou=locked,${BASE}`, person('policy'));
  } finally {
    await c.unbind();
  }
}

/** Starts slapd (foreground: `-d 0`) and seeds it. @returns its URL and a stop that removes the temp dir. */
export async function startSlapd(): Promise<{ url: string; port: number; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'unseen4-slapd-'));
  mkdirSync(join(dir, 'db'));
  writeFileSync(join(dir, 'slapd.conf'), config(dir));
  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const server = await spawnServer(
    findBinary('slapd'),
    ['-f', join(dir, 'slapd.conf'), '-h', `${url}/`, '-d', '0'],
    port,
  );
  try {
    await seed(url);
  } catch (e) {
    await server.stop();
    throw e;
  }
  return {
    url,
    port,
    stop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
