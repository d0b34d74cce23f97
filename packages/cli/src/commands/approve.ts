// `aggregation approve <connect_token>`: approves an MFA challenge as its user would in the enrollment widget.
import type { Command } from 'commander';
import { Context } from '../context.ts';

export function approveCommand(program: Command): void {
  program
    .command('approve')
    .description('Approve the MFA challenge a payee or payment answered with; then send that request again with the same Idempotency-Key')
    .argument('<connect_token>', 'the connect_token of the challenge')
    .option(
      '--enrollment <id>',
      "with this enrollment's token (made by `aggregation enroll` on this server); any enrollment of the application will do",
    )
    .addHelpText(
      'after',
      `
The request that answered the challenge, sent again with the same Idempotency-Key and body, then takes effect once.
A challenge expires 30 minutes (enrollment clock) after it was issued.

Examples:
  $ aggregation approve sON_WDmrK1qOvmqkqQLnansdAqXQog5B
  $ aggregation approve "$CONNECT_TOKEN" --json`,
    )
    .action(async (connectToken: string, options: { enrollment?: string }, command: Command) => {
      const context = Context.of(command);
      const sandbox = context.sandbox(context.token(options.enrollment));
      const path = { connect_token: connectToken };
      const approved = await context.ok(
        sandbox.POST('/sandbox/connect_tokens/{connect_token}/approve', { params: { path } }),
        'POST /sandbox/connect_tokens/{connect_token}/approve',
      );
      context.print(approved, () => {
        const retry = approved.idempotency_key
          ? `send the ${approved.operation} request again with Idempotency-Key ${approved.idempotency_key} and the same body to complete it.`
          : 'its request had no Idempotency-Key, so it cannot be completed: send it again with one.';
        return [
          `Approved the ${approved.operation} challenge on ${approved.account_id} (expires ${approved.expires_at}, enrollment clock):`,
          retry,
        ].join('\n');
      });
    });
}
