// Spectral in this process, as the lint script and the rules' tests run it (as `spectral lint` would): a ruleset
// file loaded the way the CLI loads it, and a document linted by a Spectral of its own, so with a resolver of its own
// (one shared by documents reached from two roots would resolve their relative references against the wrong
// directory).
import * as fs from 'node:fs';
import { Document, type ISpectralDiagnostic, type Ruleset, Spectral } from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { commonjs } from '@stoplight/spectral-ruleset-bundler/plugins/commonjs';
import { bundleAndLoadRuleset } from '@stoplight/spectral-ruleset-bundler/with-loader';

// The parsers package is CommonJS without static export names; its exports arrive as the default import.
export const { Json, Yaml } = spectralParsers as unknown as typeof import('@stoplight/spectral-parsers');

/** A ruleset file (.spectral.yaml): the OWASP ruleset resolves to its CommonJS build, which needs the commonjs plugin. */
export const loadRuleset = (file: string): Promise<Ruleset> => bundleAndLoadRuleset(file, { fs, fetch }, [commonjs()]);

/**
 * The findings of `ruleset` in `text`, read as the file at `path` (which decides the overrides that apply and where
 * relative references lead), parsed as YAML as the CLI parses every document, JSON included.
 */
export function lintText(ruleset: Ruleset, text: string, path: string): Promise<ISpectralDiagnostic[]> {
  const spectral = new Spectral();
  spectral.setRuleset(ruleset);
  return spectral.run(new Document(text, Yaml, path));
}
