import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS, type Table } from '../../../server/db/owners.js';

/**
 * Every table has one owner (server/db/owners.ts): only files in the owner's
 * folder query it. A module that needs another's rows asks the owner, or joins
 * through an expression the owner exports (drive's `chargedBytes`), so a rule
 * about a table is written once. Today's exceptions are listed below, each with
 * why; the list should only shrink.
 */
const ALLOWED: Record<string, Partial<Record<Table, string>>> = {
  // Below modules/: infrastructure that speaks SQL for everyone.
  'db/locks.ts': { users: 'the per-user row lock that serialises quota checks (PostgreSQL `for update`)' },
  'db/search.ts': { file_entries: 'the dialect-specific name search (FTS/trigram) the drive listing calls' },
  'jobs/housekeeping.ts': { sessions: 'expired-row sweep across tables', user_tokens: 'expired-row sweep across tables' },
  // The access policy decides from every grant source's rows (ARCHITECTURE.md: the only place that decides).
  'modules/access/grants.repository.ts': { entry_shares: 'grant source: entries shared with a person', users: 'grant source: who a share names' },
  'modules/access/memberships.repository.ts': {
    permissions: 'a workspace role’s permissions, for the policy',
    role_permissions: 'a workspace role’s permissions, for the policy',
    workspace_members: 'grant source: workspace membership',
    workspaces: 'grant source: the workspace’s owner',
  },
  // Admin read models: one page joining several owners' tables for the admin's screens.
  'modules/admin/files/service.ts': {
    file_entries: 'the admin’s file table across every space',
    users: 'owner email column',
    workspaces: 'workspace name column',
  },

  'modules/admin/users/repository.ts': { users: 'the admin’s user table (a read model: figures from drive’s chargedBytes, auth’s lastActiveAt)' },
  'modules/admin/workspaces/service.ts': {
    users: 'owner email column',
    workspace_members: 'member counts of the admin’s workspace table',
    workspaces: 'the admin’s workspace table',
  },

  // Read models that join another owner's table for one column or one flag.
  'modules/drive/listing.repository.ts': { users: 'owner name columns of a listing', entry_shares: 'the “shared” flag', share_links: 'the “shared” flag' },
  'modules/share-links/repository.ts': { file_entries: 'the linked entry and its subtree' },
  'modules/sharing/repository.ts': { file_entries: 'the shared entry', users: 'who it is shared with' },
  'modules/workspaces/repository.ts': { roles: 'workspace roles live in the roles table (type workspace)', users: 'member names and emails' },
  // Installation and demo data: writes every owner's defaults in one transaction.
  'modules/setup/demo.ts': { roles: 'demo accounts', settings: 'demo settings', user_roles: 'demo accounts', users: 'demo accounts' },
  'modules/setup/first-admin.ts': { roles: 'the first admin', user_roles: 'the first admin', users: 'the first admin' },
  'modules/setup/seeder.ts': {
    localization_lines: 'shipped languages',
    localizations: 'shipped languages',
    menus: 'default menus',
    permissions: 'the permission catalogue',
    prices: 'default plans',
    products: 'default plans',
    role_permissions: 'default roles',
    roles: 'default roles',
    themes: 'default themes',
  },
};

const QUERY_METHODS = new Set([
  'selectFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
]);
const SQL_TABLE = /\b(?:from|join|into|update)\s+"?([a-z_][a-z0-9_]*)"?/gi;
const isTable = (name: string): name is Table => Object.hasOwn(TABLE_OWNERS, name);

interface Query {
  table: Table | '?';
  line: number;
  how: string;
}

/** The tables a source file queries: query-builder calls, `sql.table` and table names in `sql` templates. */
export function tableQueries(file: string, source: string): Query[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const found: Query[] = [];
  const lineOf = (node: ts.Node) => tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1;
  const named = (node: ts.Node, text: string, how: string) => {
    const name = text.split(/\s+as\s+/i)[0]!.trim();
    if (isTable(name)) found.push({ table: name, line: lineOf(node), how });
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const target = node.arguments[0];
      const isSqlTable = method === 'table' && ts.isIdentifier(node.expression.expression) && node.expression.expression.text === 'sql';
      if (target && (QUERY_METHODS.has(method) || isSqlTable)) {
        const names = ts.isArrayLiteralExpression(target) ? [...target.elements] : [target];
        for (const element of names) {
          if (ts.isStringLiteralLike(element)) named(element, element.text, method);
          // A table chosen at run time hides from this check: name it in the call.
          else if (ts.isIdentifier(element) || ts.isConditionalExpression(element)) found.push({ table: '?', line: lineOf(element), how: method });
        }
      }
    }
    if (ts.isTaggedTemplateExpression(node) && ts.isIdentifier(node.tag) && node.tag.text === 'sql') {
      const t = node.template;
      const text = ts.isNoSubstitutionTemplateLiteral(t) ? t.text : [t.head.text, ...t.templateSpans.map((s) => s.literal.text)].join(' ? ');
      for (const match of text.matchAll(SQL_TABLE)) named(node, match[1]!, 'sql');
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

/** Queries of a table outside its owner's folder; `file` is relative to server/. */
export function strayQueries(file: string, source: string, allowed = ALLOWED): string[] {
  return tableQueries(file, source)
    .filter((q) => q.table === '?' || (!file.startsWith(`${TABLE_OWNERS[q.table]}/`) && !allowed[file]?.[q.table]))
    .map((q) => `server/${file}:${q.line} ${q.how}(${q.table})${q.table === '?' ? ' names no table' : ` belongs to server/${TABLE_OWNERS[q.table]}`}`);
}

const serverFiles = (): string[] =>
  (fs.readdirSync('server', { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join('/'))
    .filter((f) => f.endsWith('.ts') && !f.startsWith('db/migrations/'))
    .sort();

describe('table owners', () => {
  it('names an owner folder that exists for every table', () => {
    for (const owner of new Set(Object.values(TABLE_OWNERS))) expect(fs.existsSync(path.join('server', owner)), owner).toBe(true);
  });

  it('finds no query of a table outside its owner but the listed ones', () => {
    const stray = serverFiles().flatMap((file) => strayQueries(file, fs.readFileSync(path.join('server', file), 'utf8')));
    expect(stray).toEqual([]);
  });

  it('lists only exceptions that still exist (the list shrinks as owners take their queries back)', () => {
    const stale: string[] = [];
    for (const [file, tables] of Object.entries(ALLOWED)) {
      const source = fs.existsSync(path.join('server', file)) ? fs.readFileSync(path.join('server', file), 'utf8') : '';
      const queried = new Set(tableQueries(file, source).map((q) => q.table));
      for (const [table, reason] of Object.entries(tables)) {
        if (!queried.has(table as Table) || file.startsWith(`${TABLE_OWNERS[table as Table]}/`)) stale.push(`${file} ${table}`);
        expect(reason, `${file} ${table}`).toMatch(/\w{3,}/);
      }
    }
    expect(stale).toEqual([]);
  });

  it('bites: a module querying, joining or writing SQL over another module’s table', () => {
    const probe = [
      "export const a = (db: Db) => db.selectFrom('users').selectAll().execute();",
      "export const b = (db: Db) => db.selectFrom('entry_shares').innerJoin('roles as r', 'r.id', 'entry_shares.user_id').execute();",
      "export const c = (db: Db) => db.updateTable('file_entries').set({ name: 'x' }).execute();",
      'export const d = (db: Db) => sql<number>`select count(*) from file_entries\n  join "users" on users.id = file_entries.owner_id where id = ${1}`.execute(db);',
      "export const e = (db: Db, table: 'users' | 'roles') => db.selectFrom(table).selectAll().execute();",
    ].join('\n');
    expect(strayQueries('modules/sharing/probe.ts', probe, {})).toEqual([
      'server/modules/sharing/probe.ts:1 selectFrom(users) belongs to server/modules/users',
      'server/modules/sharing/probe.ts:2 innerJoin(roles) belongs to server/modules/users',
      'server/modules/sharing/probe.ts:3 updateTable(file_entries) belongs to server/modules/drive',
      'server/modules/sharing/probe.ts:4 sql(file_entries) belongs to server/modules/drive',
      'server/modules/sharing/probe.ts:4 sql(users) belongs to server/modules/users',
      'server/modules/sharing/probe.ts:6 selectFrom(?) names no table',
    ]);
    // The same queries are the owner's own business, or a listed exception.
    expect(strayQueries('modules/users/probe.ts', "export const a = (db: Db) => db.selectFrom('users').innerJoin('roles', 'a', 'b');", {})).toEqual([]);
    expect(
      strayQueries('modules/sharing/probe.ts', "export const a = (db: Db) => db.selectFrom('users');", { 'modules/sharing/probe.ts': { users: 'a reason' } }),
    ).toEqual([]);
  });
});
