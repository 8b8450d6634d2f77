/** The main job's built-in scenarios: every `*.json` in examples/agent-demo/scenarios, in file-name order. */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenarioFile, type AgentScenario } from './scenario';

export const BUILT_IN_SCENARIO_DIR = join(__dirname, 'scenarios');

/** @throws ScenarioFileError when a built-in file is broken (a bug of this repository). */
export function builtInScenarios(): { scenario: AgentScenario; source: string }[] {
  return readdirSync(BUILT_IN_SCENARIO_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => {
      const source = join(BUILT_IN_SCENARIO_DIR, f);
      return loadScenarioFile(source).map((scenario) => ({ scenario, source }));
    });
}
