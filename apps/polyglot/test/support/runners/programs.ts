// Runs TypeScript programs one after another in this one Node process, each imported from its file as it is, with
// its own environment (see ../in-one-process.ts for the plan and the markers).
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';

type Program = { name: string; file: string; env: Record<string, string> };
const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { programs: Program[] };

const marker = (event: object) => `\u001e${JSON.stringify(event)}\n`;
let previous: Record<string, string> = {};
for (const program of plan.programs) {
  for (const name of Object.keys(previous)) delete process.env[name];
  Object.assign(process.env, program.env);
  previous = program.env;
  process.stderr.write(marker({ start: program.name }));
  process.stdout.write(marker({ start: program.name }));
  let error = '';
  try {
    // A program's top-level await is part of its import: it has finished when the import has.
    await import(pathToFileURL(program.file).href);
  } catch (thrown) {
    error = inspect(thrown);
  }
  process.stdout.write(marker({ end: program.name, ok: error === '', error }));
}
// What a program left open (a stream, a keep-alive socket) would keep the process alive.
process.exit(0);
