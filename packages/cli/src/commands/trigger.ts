// `aggregation trigger <event-type>`: fires a webhook event as the service would send it.

import { webhookEventTypes } from '@aggregation/client';
import type { Command } from 'commander';
import { Context } from '../context.ts';

export function triggerCommand(program: Command): void {
  program
    .command('trigger')
    .description('Fire a webhook event, with a payload the server builds from the enrollment')
    .argument('<event-type>', `one of ${webhookEventTypes.join(', ')}`)
    .option('--enrollment <id>', 'fire it for this enrollment (made by `aggregation enroll` on this server)')
    .addHelpText(
      'after',
      `
Examples:
  $ aggregation trigger webhook.test
  $ aggregation trigger transactions.processed --enrollment enr_3fh9kq2mlx7pz1wn`,
    )
    .action(async (type: string, options: { enrollment?: string }, command: Command) => {
      const context = Context.of(command);
      const sandbox = context.sandbox(context.token(options.enrollment));
      const body = { type } as { type: (typeof webhookEventTypes)[number] };
      const event = await context.ok(sandbox.POST('/sandbox/events', { body }), 'POST /sandbox/events');
      context.print(
        event,
        () => `Fired ${event.type} ${event.id} at ${event.timestamp} (enrollment clock); follow it with \`aggregation deliveries\`.`,
      );
    });
}
