/**
 * The fourth set's libraries and their expected tables, by name (the npm package). A library's module is loaded on
 * first use: a run of one library loads only its own client.
 */
import type { UnseenLibrary } from '../unseen/cases';
import { AMQPLIB_EXPECTED } from './amqplib.expected';
import { BASIC_FTP_EXPECTED } from './basic-ftp.expected';
import type { ExpectedTable4 } from './cases';
import { GRAPHQL_REQUEST_EXPECTED } from './graphql-request.expected';
import { IMAPFLOW_EXPECTED } from './imapflow.expected';
import { KNEX_EXPECTED } from './knex.expected';
import { LDAPJS_EXPECTED } from './ldapjs.expected';
import { LDAPTS_EXPECTED } from './ldapts.expected';
import { MCP_EVERYTHING_EXPECTED } from './mcp-everything.expected';
import { MCP_SDK_SERVER_EXPECTED } from './mcp-sdk-server.expected';
import { MIKRO_ORM_EXPECTED } from './mikro-orm.expected';
import { MQTT_EXPECTED } from './mqtt.expected';
import { POSTGREST_JS_EXPECTED } from './postgrest-js.expected';
import { SSH2_SFTP_CLIENT_EXPECTED } from './ssh2-sftp-client.expected';

/** A library's fixture and cases (loaded on first use), and its expected table. */
export interface Entry4 {
  library: () => UnseenLibrary;
  expected: ExpectedTable4;
}

/** `module`'s export `name`, required on first call. */
function lazy(module: string, name: string): () => UnseenLibrary {
  return () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy: each client stays out of the others' runs
    const lib = (require(module) as Record<string, UnseenLibrary | undefined>)[name];
    if (lib === undefined) throw new Error(`${module} exports no ${name}`);
    return lib;
  };
}

export const LIBRARIES4: Readonly<Record<string, Entry4>> = {
  'basic-ftp': { library: lazy('./basic-ftp', 'basicFtpLibrary'), expected: BASIC_FTP_EXPECTED },
  ldapts: { library: lazy('./ldapts', 'ldaptsLibrary'), expected: LDAPTS_EXPECTED },
  ldapjs: { library: lazy('./ldapjs', 'ldapjsLibrary'), expected: LDAPJS_EXPECTED },
  mqtt: { library: lazy('./mqtt', 'mqttLibrary'), expected: MQTT_EXPECTED },
  'graphql-request': {
    library: lazy('./graphql-request', 'graphqlRequestLibrary'),
    expected: GRAPHQL_REQUEST_EXPECTED,
  },
  '@supabase/postgrest-js': {
    library: lazy('./postgrest-js', 'postgrestJsLibrary'),
    expected: POSTGREST_JS_EXPECTED,
  },
  knex: { library: lazy('./knex', 'knexLibrary'), expected: KNEX_EXPECTED },
  '@mikro-orm/core': { library: lazy('./mikro-orm', 'mikroOrmLibrary'), expected: MIKRO_ORM_EXPECTED },
  amqplib: { library: lazy('./amqplib', 'amqplibLibrary'), expected: AMQPLIB_EXPECTED },
  imapflow: { library: lazy('./imapflow', 'imapflowLibrary'), expected: IMAPFLOW_EXPECTED },
  'ssh2-sftp-client': {
    library: lazy('./ssh2-sftp-client', 'ssh2SftpClientLibrary'),
    expected: SSH2_SFTP_CLIENT_EXPECTED,
  },
  '@modelcontextprotocol/server-everything': {
    library: lazy('./mcp-everything', 'mcpEverythingLibrary'),
    expected: MCP_EVERYTHING_EXPECTED,
  },
  '@modelcontextprotocol/sdk': {
    library: lazy('./mcp-sdk-server', 'mcpSdkServerLibrary'),
    expected: MCP_SDK_SERVER_EXPECTED,
  },
};

export const LIBRARY4_NAMES: readonly string[] = Object.keys(LIBRARIES4);
