// Every TypeScript snippet of every README in the repository compiles against the packages it imports, as a reader
// would paste it into a module of their own: each ```ts block is written to a file of its own and type-checked by tsc
// with the repository's compiler options. A snippet that does not compile names its README and line.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { globSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const workDir = join(dirname(fileURLToPath(import.meta.url)), '..', '.readme-snippets');
// The repository's own compiler (TypeScript 7, installed as `typescript-7`; `typescript` is 5 for the tools that use its API).
const typescriptCompiler = join(dirname(createRequire(import.meta.url).resolve('typescript-7/package.json')), 'bin', 'tsc');

// Installed and generated trees: their READMEs are not ours.
const skippedDirs = new Set(['node_modules', 'dist', 'clients', '.git', '.turbo', '.readme-snippets']);

type Snippet = { readme: string; line: number; source: string };

/** The ```ts (or ```typescript) blocks of a Markdown text, with the line each starts on. */
export function typescriptBlocks(markdown: string): { line: number; source: string }[] {
  const blocks: { line: number; source: string }[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[index]!)) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    blocks.push({ line: start + 1, source: lines.slice(start, end).join('\n') });
    index = end;
  }
  return blocks;
}

function readmeSnippets(): Snippet[] {
  const readmes = globSync('**/README.md', { cwd: root, exclude: (name) => skippedDirs.has(basename(name)) }).sort();
  return readmes.flatMap((readme) => typescriptBlocks(readFileSync(join(root, readme), 'utf8')).map((block) => ({ readme, ...block })));
}

test('every TypeScript snippet of every README compiles', () => {
  const snippets = readmeSnippets();
  assert.ok(snippets.length > 0, 'no snippet found');
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const files = new Map<string, Snippet>();
  snippets.forEach((snippet, index) => {
    const file = `snippet-${index}.ts`;
    // `export {}` makes each snippet a module of its own (top-level await, no clashing names).
    writeFileSync(join(workDir, file), `${snippet.source}\nexport {};\n`);
    files.set(file, snippet);
  });
  writeFileSync(join(workDir, 'tsconfig.json'), JSON.stringify({ extends: '../../../tsconfig.base.json', include: ['*.ts'] }));
  let output = '';
  try {
    execFileSync(process.execPath, [typescriptCompiler, '-p', workDir, '--pretty', 'false'], { encoding: 'utf8' });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  // `snippet-3.ts(4,7): error TS...` back to the README's own line.
  const problems = output
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const match = /(snippet-\d+\.ts)\((\d+),(\d+)\): (.*)$/.exec(line);
      const snippet = match && files.get(match[1]!);
      return snippet ? `${snippet.readme}:${snippet.line + Number(match![2]) - 1}: ${match![4]}` : line;
    });
  assert.deepEqual(problems, [], `README snippets that do not compile:\n${problems.join('\n')}`);
  console.log(`# ${snippets.length} TypeScript snippets of ${new Set(snippets.map((snippet) => snippet.readme)).size} READMEs compile`);
});
