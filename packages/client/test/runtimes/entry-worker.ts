// The scenario in a worker (workerd): POST the input, the answer is the result. The runtime-neutral entry, which is
// what a bundler resolves `@aggregation/client` to for workers.
import * as client from '../../src/index.ts';
import { type ScenarioInput, scenario } from './scenario.ts';

export default {
  async fetch(request: Request): Promise<Response> {
    try {
      return Response.json(await scenario(client, (await request.json()) as ScenarioInput));
    } catch (error) {
      return new Response(String((error as Error).stack ?? error), { status: 500 });
    }
  },
};
