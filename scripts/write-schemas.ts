/**
 * Writes the JSON Schemas the package ships (`npm run schemas`): schemas/scripted-policy.schema.json, from the
 * scripted planner's zod schema (activities/planners/scripted-policy.ts). test/unit/scripted-policy-schema.test.ts
 * fails when the committed file is not what this writes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scriptedPolicyJsonSchema } from '../activities/planners/scripted-policy';

const file = join(__dirname, '..', 'schemas', 'scripted-policy.schema.json');
writeFileSync(file, `${JSON.stringify(scriptedPolicyJsonSchema(), null, 2)}\n`);
console.log(`wrote ${file}`);
