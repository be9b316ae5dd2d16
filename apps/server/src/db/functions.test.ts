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

// src/db/functions/<name>.sql is the current text of each SQL function; the migrations must have left the database
// holding exactly that. The file is created again in a scratch schema and both definitions compared as PostgreSQL
// prints them (arguments, result, language, settings and body), so a migration that forgot a change fails here.
describe.each(engines)('SQL functions on %s', (engine) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await t?.database.close();
    await t?.drop();
  });

  it('has a canonical file for each function', () => {
    expect(canonical.map((c) => c.name).sort()).toEqual(['hold_seats', 'session_users']);
  });

  it.each(canonical)('holds $name exactly as its file in src/db/functions says', async ({ name, text }) => {
    const definition = (db: Queryable, schema: string) =>
      queryRows<{ def: string }>(
        db,
        sql`select pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace
             where n.nspname = ${schema} and p.proname = ${name}`,
      );
    const migrated = await definition(t.database.db, 'public');
    expect(migrated).toHaveLength(1);
    let created: { def: string }[] = [];
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`create schema canonical_functions`);
        await tx.execute(sql`set local search_path = canonical_functions, public`);
        await tx.execute(sql.raw(text));
        created = await definition(tx, 'canonical_functions');
        tx.rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Error && err.message === 'Rollback')) throw err;
      });
    expect(created).toHaveLength(1);
    expect(created[0]!.def.replace('canonical_functions.', 'public.')).toBe(migrated[0]!.def);
  });
});
