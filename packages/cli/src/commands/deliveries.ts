// `aggregation deliveries [--failed]` and `aggregation redeliver <delivery-id>`: the webhook delivery log.
import type { Command } from 'commander';
import { Context } from '../context.ts';
import { paint, statusStyle, table } from '../output.ts';

/** Its last attempt did not get a 2xx: failed for good, or pending a retry after an error. */
const failing = (delivery: { status: string; last_error?: string | null }) =>
  delivery.status === 'failed' || (delivery.status === 'pending' && Boolean(delivery.last_error));

export function deliveriesCommand(program: Command): void {
  program
    .command('deliveries')
    .description('List the latest webhook deliveries, newest first')
    .option('--failed', 'only deliveries whose last attempt failed (failed, or pending a retry)')
    .addHelpText(
      'after',
      `
Times are real time, as retries run; an event's own timestamp is on its enrollment's sandbox clock.

Examples:
  $ aggregation deliveries
  $ aggregation deliveries --failed --json | jq -r '.[].id' | xargs -n1 aggregation redeliver`,
    )
    .action(async (options: { failed?: boolean }, command: Command) => {
      const context = Context.of(command);
      const sandbox = context.sandbox(context.token());
      const all = await context.ok(sandbox.GET('/sandbox/webhook/deliveries'), 'GET /sandbox/webhook/deliveries');
      const shown = options.failed ? all.filter(failing) : all;
      context.print(shown, () =>
        shown.length === 0
          ? options.failed
            ? 'No failing deliveries.'
            : 'No deliveries yet: set a webhook URL (or run `aggregation listen`), then `aggregation trigger webhook.test`.'
          : table(
              ['DELIVERY', 'EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'NEXT ATTEMPT', 'LAST ANSWER'],
              shown.map((delivery) => [
                delivery.id,
                delivery.event_id,
                delivery.event_type,
                paint(delivery.status === 'delivered' ? 'green' : delivery.status === 'failed' ? 'red' : 'yellow', delivery.status),
                String(delivery.attempts),
                delivery.next_attempt_at ?? '-',
                delivery.last_error ?? (delivery.last_status == null ? '-' : paint(statusStyle(delivery.last_status), String(delivery.last_status))),
              ]),
            ),
      );
    });

  program
    .command('redeliver')
    .description("Send a delivery's event again (same body, fresh signature) to the current webhook URL")
    .argument('<delivery-id>', 'a delivery of `aggregation deliveries`')
    .addHelpText(
      'after',
      `
Examples:
  $ aggregation redeliver dlv_2hc8wq5lz1np7ks3`,
    )
    .action(async (deliveryId: string, _options: unknown, command: Command) => {
      const context = Context.of(command);
      const sandbox = context.sandbox(context.token());
      const path = '/sandbox/webhook/deliveries/{delivery_id}/redeliver';
      const queued = await context.ok(sandbox.POST(path, { params: { path: { delivery_id: deliveryId } } }), `POST ${path}`);
      context.print(queued, () => `Redelivering ${queued.event_type} ${queued.event_id} as ${queued.id}.`);
    });
}
