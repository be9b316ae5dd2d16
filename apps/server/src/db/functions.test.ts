import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverRoot } from '../paths.ts';
import { queryRows, type Queryable } from './database.ts';
import { createTestDatabase, engines, type TestDatabase } from '../test/helpers.ts';

const folder = path.join(serverRoot, 'src/db/functions');
const canonical = readdirSync(folder)
  .filter((f) => f.endsWith('.sql'))
  .map((file) => ({
    name: path.basename(file, '.sql'),
    text: readFileSync(path.join(folder, file), 'utf8'),
  }));

// src/db/functions/<name>.sql is the current text of each SQL function, with the triggers that run it (the sales
// report's, decision 028); the migrations must have left the database holding exactly that. The file is run again in a
// scratch schema (with empty copies of the tables its triggers are on) and both definitions compared as PostgreSQL
// prints them (arguments, result, language, settings, body; each trigger's events, condition and function), so a
// migration that forgot a change fails here.
describe.each(engines)('SQL functions and triggers on %s', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.database.close();
    await t?.drop();
  });

  /** Functions of ours in a schema (not an extension's, such as btree_gist's). */
  const functionsIn = (db: Queryable, schema: string) =>
    queryRows<{ name: string; def: string }>(
      db,
      sql`select p.proname as name, pg_get_functiondef(p.oid) as def
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = ${schema}
            and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
          order by p.proname`,
    );
  /** Triggers on the tables of a schema with the function each runs, as PostgreSQL prints them, by name. */
  const triggersIn = (db: Queryable, schema: string) =>
    queryRows<{ name: string; fn: string; tbl: string; def: string }>(
      db,
      sql`select tg.tgname as name, p.proname as fn, c.relname as tbl, pg_get_triggerdef(tg.oid) as def
          from pg_trigger tg join pg_class c on c.oid = tg.tgrelid join pg_namespace n on n.oid = c.relnamespace
          join pg_proc p on p.oid = tg.tgfoid
          where n.nspname = ${schema} and not tg.tgisinternal
          order by tg.tgname`,
    );
  const asPublic = (text: string) => text.replaceAll('canonical_functions.', 'public.');

  it('has a canonical file for each function and trigger the migrations leave', async () => {
    const names = canonical.map((c) => c.name).sort();
    expect((await functionsIn(t.database.db, 'public')).map((f) => f.name)).toEqual(names);
    for (const trigger of await triggersIn(t.database.db, 'public')) expect(names).toContain(trigger.fn);
    expect(names).toEqual(expect.arrayContaining(['hold_seats', 'session_users', 'sales_report_changed']));
  });

  it.each(canonical)('holds $name exactly as its file in src/db/functions says', async ({ name, text }) => {
    const migrated = (await functionsIn(t.database.db, 'public')).filter((f) => f.name === name);
    expect(migrated).toHaveLength(1);
    const migratedTriggers = (await triggersIn(t.database.db, 'public')).filter((tg) => tg.fn === name);
    let created: { name: string; def: string }[] = [];
    let createdTriggers: { name: string; def: string }[] = [];
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`create schema canonical_functions`);
        for (const table of new Set(migratedTriggers.map((tg) => tg.tbl))) {
          await tx.execute(sql.raw(`create table canonical_functions.${table} (like public.${table})`));
        }
        await tx.execute(sql`set local search_path = canonical_functions, public`);
        // Statements as a migration splits them, so the file can be copied into one as it is.
        for (const statement of text.split('--> statement-breakpoint')) await tx.execute(sql.raw(statement));
        created = (await functionsIn(tx, 'canonical_functions')).filter((f) => f.name === name);
        createdTriggers = await triggersIn(tx, 'canonical_functions');
        tx.rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Error && err.message === 'Rollback')) throw err;
      });
    expect(created).toHaveLength(1);
    expect(asPublic(created[0]!.def)).toBe(migrated[0]!.def);
    expect(createdTriggers.map((tg) => ({ name: tg.name, def: asPublic(tg.def) }))).toEqual(
      migratedTriggers.map((tg) => ({ name: tg.name, def: tg.def })),
    );
  });
});
