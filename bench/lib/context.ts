// What every scenario gets: the options, a scratch folder for its database files, a logger,
// and the extra Node flags for processes under test (--cpu-prof with --profile).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from './options.ts';

export interface Context {
  options: BenchOptions;
  /** Scratch folder of this run (removed at the end). */
  workdir: string;
  log(message: string): void;
  /** Node flags for a process under test named `name`. */
  execArgv(name: string): string[];
}

export const profilesDir = fileURLToPath(new URL('../profiles/', import.meta.url));

export function createContext(options: BenchOptions, workdir: string): Context {
  const started = performance.now();
  return {
    options,
    workdir,
    log(message) {
      console.error(`[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${message}`);
    },
    execArgv(name) {
      if (!options.profile) return [];
      mkdirSync(profilesDir, { recursive: true });
      return ['--cpu-prof', `--cpu-prof-dir=${profilesDir}`, `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`];
    },
  };
}
