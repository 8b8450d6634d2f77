/**
 * The unseen libraries and their expected tables, by name (the npm package; `words` for the unit-level wordings).
 * A library's module is loaded on first use: a run of one library loads only its own client.
 */
import { AZURE_BLOB_EXPECTED } from './azure-blob.expected';
import type { ExpectedTable, UnseenLibrary } from './cases';
import { COHERE_EXPECTED } from './cohere.expected';
import { ELASTICSEARCH_EXPECTED } from './elasticsearch.expected';
import { GRAMMY_EXPECTED } from './grammy.expected';
import { HUBSPOT_EXPECTED } from './hubspot.expected';
import { MEMJS_EXPECTED } from './memjs.expected';
import { NATS_EXPECTED } from './nats.expected';
import { NODEMAILER_EXPECTED } from './nodemailer.expected';
import { WORDS_EXPECTED } from './words.expected';

/** A library's fixture and cases (loaded on first use), and its expected table. */
export interface Entry {
  library: () => UnseenLibrary;
  expected: ExpectedTable;
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

export const LIBRARIES: Readonly<Record<string, Entry>> = {
  nodemailer: { library: lazy('./nodemailer', 'nodemailerLibrary'), expected: NODEMAILER_EXPECTED },
  memjs: { library: lazy('./memjs', 'memjsLibrary'), expected: MEMJS_EXPECTED },
  nats: { library: lazy('./nats', 'natsLibrary'), expected: NATS_EXPECTED },
  '@azure/storage-blob': { library: lazy('./azure-blob', 'azureBlobLibrary'), expected: AZURE_BLOB_EXPECTED },
  '@elastic/elasticsearch': {
    library: lazy('./elasticsearch', 'elasticsearchLibrary'),
    expected: ELASTICSEARCH_EXPECTED,
  },
  grammy: { library: lazy('./grammy', 'grammyLibrary'), expected: GRAMMY_EXPECTED },
  '@hubspot/api-client': { library: lazy('./hubspot', 'hubspotLibrary'), expected: HUBSPOT_EXPECTED },
  'cohere-ai': { library: lazy('./cohere', 'cohereLibrary'), expected: COHERE_EXPECTED },
  words: { library: lazy('./words', 'wordsLibrary'), expected: WORDS_EXPECTED },
};

export const LIBRARY_NAMES: readonly string[] = Object.keys(LIBRARIES);
