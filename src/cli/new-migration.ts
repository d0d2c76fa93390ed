// `npm run db:migration -- NAME`: writes the migration that takes the last committed schema to the edited
// prisma/schema.prisma. It needs no database (Prisma diffs the two schema files), so it works offline.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIGRATIONS_DIR } from '../db/migrate.js';
import { diffSchemas } from '../db/prisma-cli.js';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:migration -- snake_case_name');
  process.exit(2);
}
const committed = execFileSync('git', ['show', 'HEAD:prisma/schema.prisma'], { encoding: 'utf8' });
const previous = join(mkdtempSync(join(tmpdir(), 'parley-schema-')), 'schema.prisma');
writeFileSync(previous, committed);

const sql = await diffSchemas(previous, 'prisma/schema.prisma');
if (/^-- This is an empty migration\.\s*$/.test(sql.trim())) {
  console.log('prisma/schema.prisma is unchanged since the last commit: no migration to write.');
} else {
  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const dir = join(MIGRATIONS_DIR, `${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'migration.sql'), sql);
  console.log(`wrote ${dir}/migration.sql — review it, then commit it with the schema.`);
}
