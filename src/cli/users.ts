import type { Command } from 'commander';
import type { App } from '../app.js';
import { TroveError } from '../errors.js';
import { type UserView, type UserWithToken, createUser, deleteUser, listUsers, regenerateToken, showUser } from '../service/users.js';
import { type GlobalOptions, printJson, withApp } from './context.js';

// `trove create-user | delete-user | show-user | list-users | update-user`: users and personal tokens,
// worked on the store in-process. A token is printed once, on stdout; only its hash is kept.

interface UserFlags extends GlobalOptions {
  admin?: boolean;
  regenToken?: boolean;
}

const when = (iso: string | null) => iso ?? 'never';

function userLines(u: UserView): string[] {
  return [
    `name        ${u.name}`,
    `admin       ${u.admin ? 'yes' : 'no'}`,
    `created     ${u.created}`,
    `token made  ${when(u.token_created)}`,
    `token used  ${when(u.token_last_used)}`,
  ];
}

export function formatUsers(users: UserView[]): string {
  const width = Math.max(4, ...users.map((u) => u.name.length));
  const lines = users.map((u) => `${u.name.padEnd(width)}  ${u.admin ? 'admin' : 'user '}  created ${u.created}  token used ${when(u.token_last_used)}`);
  lines.push(`${users.length} user${users.length === 1 ? '' : 's'}`);
  return lines.join('\n');
}

function printToken(r: UserWithToken, what: string, json: boolean | undefined): void {
  if (json) return printJson(r);
  process.stdout.write(`${what}\ntoken: ${r.token}\nThis token will not be shown again: store it now (a lost token can only be replaced: trove update-user ${r.user.name} --regen-token).\n`);
}

/** Personal tokens only count in multi-user mode; say so (on stderr) when it is off. */
function noteMode(app: App, json: boolean | undefined): void {
  if (!json && !app.config.app.user_handling) process.stderr.write('trove: note: app.user_handling is off; personal tokens are accepted only when it is on\n');
}

function flags(cmd: Command): UserFlags {
  return cmd.optsWithGlobals() as UserFlags;
}

export function registerUsers(program: Command): void {
  program
    .command('create-user')
    .description('create a user with a personal token (printed once)')
    .argument('<name>', '1 to 64 characters of A-Z a-z 0-9 . _ -')
    .option('--admin', 'the user sees and manages everything')
    .option('--json', 'machine-readable output: {user, token}')
    .action(async (name: string, _o, cmd: Command) => {
      const f = flags(cmd);
      await withApp(f, async (app) => {
        const r = await createUser(app, { name, admin: f.admin === true });
        printToken(r, `created ${r.user.admin ? 'admin' : 'user'} ${r.user.name}`, f.json);
        noteMode(app, f.json);
      });
    });

  program
    .command('delete-user')
    .description('delete a user with their token, banks and personal documents')
    .argument('<name>')
    .option('--json', 'machine-readable output')
    .action(async (name: string, _o, cmd: Command) => {
      const f = flags(cmd);
      await withApp(f, async (app) => {
        const r = await deleteUser(app, name);
        if (f.json) printJson(r);
        else process.stdout.write(`deleted user ${r.name}\n`);
      });
    });

  program
    .command('show-user')
    .description('show one user (never their token)')
    .argument('<name>')
    .option('--json', 'machine-readable output')
    .action(async (name: string, _o, cmd: Command) => {
      const f = flags(cmd);
      await withApp(f, async (app) => {
        const u = await showUser(app, name);
        if (f.json) printJson(u);
        else process.stdout.write(`${userLines(u).join('\n')}\n`);
      });
    });

  program
    .command('list-users')
    .description('list the users')
    .option('--json', 'machine-readable output')
    .action(async (_o, cmd: Command) => {
      const f = flags(cmd);
      await withApp(f, async (app) => {
        const r = await listUsers(app);
        if (f.json) printJson(r);
        else process.stdout.write(`${formatUsers(r.users)}\n`);
      });
    });

  program
    .command('update-user')
    .description("change a user: --regen-token replaces their token (the old one stops working at once; the new one is printed once)")
    .argument('<name>')
    .option('--regen-token', 'make a new personal token')
    .option('--json', 'machine-readable output: {user, token}')
    .action(async (name: string, _o, cmd: Command) => {
      const f = flags(cmd);
      await withApp(f, async (app) => {
        if (!f.regenToken) throw new TroveError('INVALID_ARGUMENT', 'nothing to update: use --regen-token', { field: 'regen_token' });
        const r = await regenerateToken(app, name);
        printToken(r, `new token for ${r.user.name}; the old one no longer works`, f.json);
        noteMode(app, f.json);
      });
    });
}
