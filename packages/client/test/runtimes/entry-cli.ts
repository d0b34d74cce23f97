// The scenario from a command line (Node.js, Bun, Deno): the input as the first argument, the result on stdout. It
// imports the Node entry, which is what those runtimes resolve `@aggregation/client` to (its `node` export condition).
import * as client from '../../src/node.ts';
import { type ScenarioInput, scenario } from './scenario.ts';

const runtime = globalThis as { Deno?: { args: string[] }; process?: { argv: string[] } };
const [input] = runtime.Deno ? runtime.Deno.args : (runtime.process?.argv.slice(2) ?? []);
console.log(JSON.stringify(await scenario(client, JSON.parse(input ?? '{}') as ScenarioInput)));
