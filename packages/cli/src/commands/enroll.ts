// `aggregation enroll [username]`: a sandbox enrollment, its token and its accounts.
import type { Command } from 'commander';
import { Context } from '../context.ts';
import { paint, table } from '../output.ts';
import { rememberEnrollment } from '../remembered.ts';

export function enrollCommand(program: Command): void {
  program
    .command('enroll')
    .description('Create a sandbox enrollment of a test user; prints its access token and accounts')
    .argument(
      '[username]',
      'test user: username, verify.microdeposit, disconnected[.<reason>], closed, history.<n>, mfa.device, mfa.payments',
      'username',
    )
    .option('--institution <id>', 'institution of the enrollment (GET /institutions lists them)')
    .option('--mfa-code <code>', 'the one-time code of a user whose sign-in asks for one (mfa.device: 1234)')
    .addHelpText(
      'after',
      `
The token is remembered for this server: later commands use the last enrollment's token unless --token,
AGGREGATION_TOKEN or --enrollment says otherwise.

Examples:
  $ aggregation enroll
  $ aggregation enroll verify.microdeposit --institution chase
  $ aggregation enroll mfa.device --mfa-code 1234
  $ export AGGREGATION_TOKEN=$(aggregation enroll --json | jq -r .access_token)`,
    )
    .action(async (username: string, options: { institution?: string; mfaCode?: string }, command: Command) => {
      const context = Context.of(command);
      const body = {
        username,
        password: 'password',
        ...(options.institution ? { institution: options.institution } : {}),
        ...(options.mfaCode ? { mfa_code: options.mfaCode } : {}),
      };
      const created = await context.ok(context.sandbox().POST('/sandbox/enrollments', { body }), 'POST /sandbox/enrollments');
      rememberEnrollment(context.baseUrl, created.enrollment.id, created.access_token);
      context.print(created, () =>
        [
          `Enrollment ${created.enrollment.id} at ${created.enrollment.institution.name}`,
          `Access token: ${paint('bold', created.access_token)}`,
          '',
          table(
            ['ACCOUNT', 'NAME', 'TYPE', 'SUBTYPE', 'LAST FOUR', 'STATUS'],
            created.accounts.map((account) => [account.id, account.name, account.type, account.subtype, account.last_four, account.status ?? '']),
          ),
          '',
          `Try it: curl -u ${created.access_token}: ${context.baseUrl}/accounts`,
        ].join('\n'),
      );
    });
}
