// The Go module as released: the generated client with the hand-written layer (token, webhook verification on the
// vectors shared with the TypeScript and Python clients), assembled, then `go vet` and `go test` on it.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { skipWhenMissing } from '@aggregation/test-support';
import { it } from 'vitest';
import { buildGoModule } from '../src/go-module.ts';
import { artifactsDir } from '../src/paths.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';

const toolchain = findToolchain();
const noGo = skipWhenMissing('the Go module test', missingTool('go', toolchain));

it.skipIf(noGo)('the Go module passes go vet and its tests, on the shared webhook vectors', async () => {
  const module = await buildGoModule(toolchain.go!, join(artifactsDir, 'go-module'));
  for (const file of ['go.mod', 'go.sum', 'README.md', 'LICENSE', 'testdata/webhook-signatures.json']) {
    assert.ok(existsSync(join(module, file)), `${file} is missing from the module`);
  }
});
