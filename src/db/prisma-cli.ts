// Runs the Prisma CLI offline. Prisma 6 still probes for its native engines even with the JS schema engine; pointing
// these variables at any existing file stops the download attempt that these machines cannot make.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export async function runPrisma(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('npx', ['--no-install', 'prisma', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/dev/null', PRISMA_QUERY_ENGINE_LIBRARY: '/dev/null' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

/** The SQL that takes a database from `from` (a schema file, or nothing) to the schema in `to`. */
export function diffSchemas(from: string | 'empty', to: string): Promise<string> {
  const source = from === 'empty' ? ['--from-empty'] : ['--from-schema-datamodel', from];
  return runPrisma(['migrate', 'diff', ...source, '--to-schema-datamodel', to, '--script']);
}
