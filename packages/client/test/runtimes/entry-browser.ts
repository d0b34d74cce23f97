// The scenario in a page (Chromium): `runScenario(input)` resolves to the result.
import * as client from '../../src/index.ts';
import { type ScenarioInput, scenario } from './scenario.ts';

(globalThis as { runScenario?: (input: ScenarioInput) => ReturnType<typeof scenario> }).runScenario = (input) => scenario(client, input);
