// Summarizes a .cpuprofile (from `npm run bench -- --profile` or tools/profile-read.ts): the
// functions with the most self time, and the most inclusive time per function, with file and line.
// Usage: node bench/tools/profile-top.ts <file.cpuprofile> [rows]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

export function summarize(file: string, rows = 25): string {
  const out: string[] = [];
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const label = (node: Node) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^file:\/\//, '').replace(/^.*\/work\/main\//, '');
    return `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim();
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const node = byId.get(id)!;
    self.set(label(node), (self.get(label(node)) ?? 0) + dt);
    // Count each function once per sample, however deep the recursion.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = label(byId.get(at)!);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + dt);
    }
  });

  const print = (title: string, map: Map<string, number>) => {
    out.push(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
    for (const [name, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
      out.push(`${((us / total) * 100).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
    }
  };
  print('Self time', self);
  print('Inclusive time', inclusive);
  return out.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, rows] = process.argv.slice(2);
  if (!file) throw new Error('usage: node bench/tools/profile-top.ts <file.cpuprofile> [rows]');
  console.log(summarize(file, Number(rows ?? 25)));
}
