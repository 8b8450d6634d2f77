/**
 * The `rules` commands of the operator CLI (operator/cli.ts): an unknown error costs one decision, once.
 *
 *   recovery-router rules suggest [--query 'WorkflowType="Checkout"'] [--limit 200] [--json]
 *   recovery-router rules accept <fingerprint> --class <class> [--reason <reason>] [--applied no] [--write]
 *
 * `suggest` prints the namespace's unknown errors by fingerprint (operator/unknown-errors.ts), each with its count,
 * samples and the rule to add. `accept` prints the `classify.rules` entry to paste into temporal.config.json; with
 * `--write` it adds it to the file `--config` names (default ./temporal.config.json), checked first. The running
 * workers read the rule when they restart with that file: nothing is applied silently. Node-side only.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { shadowReport } from './shadow-report';
import { positive } from './shadow-report-cli';
import { acceptedRule, configWithRule, unknownErrorsText } from './unknown-errors';
import type { WithClient } from './cli';

type AcceptOptions = Parameters<typeof acceptedRule>[1] & { write?: boolean };

export function addRulesCommands(program: Command, withClient: WithClient, configPath: () => string | undefined): void {
  const rules = program.command('rules').description('teach the classifier the errors it did not recognise');
  rules
    .command('suggest')
    .description("the namespace's errors no rule recognised, by fingerprint, with counts, samples and a rule to add")
    .option('--query <query>', 'a visibility query: which workflows to read (default: the newest)')
    .option('--limit <n>', 'most workflows read', positive, 200)
    .option('--json', 'print them as JSON')
    .action((o: { query?: string; limit: number; json?: boolean }) =>
      withClient(async (c) => {
        const { unknown } = await shadowReport(c, { query: o.query, limit: o.limit });
        console.log(o.json ? JSON.stringify(unknown, null, 2) : unknownErrorsText(unknown));
      }),
    );
  rules
    .command('accept <fingerprint>')
    .description('the classify.rules entry for a fingerprint: printed to paste, or added to the config with --write')
    .requiredOption('--class <class>', 'the failure class it is (docs/DESIGN.md, "Failure classes")')
    .option('--reason <reason>', 'the reason within the class')
    .option('--applied <no|maybe>', '"no" when the error means the call was refused (a write is then replay-safe)')
    .option('--write', 'add the rule to the config file (--config, default ./temporal.config.json)')
    .action((fingerprint: string, o: AcceptOptions) => {
      let rule;
      try {
        rule = acceptedRule(fingerprint, o);
      } catch (err) {
        program.error((err as Error).message);
      }
      if (!o.write) {
        console.log(`add to "classify": { "rules": [...] } of temporal.config.json:\n${JSON.stringify(rule)}`);
        return;
      }
      const file = configPath() ?? 'temporal.config.json';
      const config = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
      writeFileSync(file, `${JSON.stringify(configWithRule(config, rule, file), null, 2)}\n`);
      console.log(`${file}: classify.rules now routes ${fingerprint} as ${o.class}; restart the workers to apply it`);
    });
}
