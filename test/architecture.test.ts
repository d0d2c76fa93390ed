// The layering README's architecture section describes, checked on every import so a shortcut cannot creep back in:
// pure domain folders hold no database code, only src/thread/ and src/outbox/ write outbox rows, the Slack layer
// reaches Parley only through the interface in src/slack/deps.ts, and nothing in production code needs dev/ or test/.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('src/generated/'));
}

const production = sourceFiles('src').filter((file) => !file.endsWith('.test.ts'));

/** Every module a file imports (static, dynamic and type-only), as a path from the repository root or a package. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] ?? '');
  return specifiers.map((specifier) =>
    specifier.startsWith('.') ? relative(ROOT, resolve(dirname(join(ROOT, file)), specifier)) : specifier,
  );
}

function violations(files: string[], forbidden: (imported: string) => boolean): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter(forbidden)
      .map((imported) => `${file} → ${imported}`),
  );
}

describe('architecture', () => {
  it('keeps database code out of the pure domain folders', () => {
    // Their tests too: a test that needs the database belongs with the database code (src/db/).
    const domain = sourceFiles('src').filter((file) =>
      /^src\/(quotation|catalog|negotiation|decision|commerce)\//.test(file),
    );
    expect(domain.length).toBeGreaterThan(30);
    expect(violations(domain, (imported) => /@prisma\/|generated\/prisma|^src\/db\//.test(imported))).toEqual([]);
  });

  it('lets only src/thread/ and src/outbox/ write outbox rows', () => {
    const writers = production.filter((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return /\benqueueSlackCalls?\(|slackOutbox\.(create|createMany|upsert)\(/.test(text);
    });
    expect(writers.filter((file) => !/^src\/(thread|outbox)\//.test(file))).toEqual([]);
    expect(writers.some((file) => file.startsWith('src/thread/'))).toBe(true);
  });

  it('has jobs call services rather than build views', () => {
    const jobs = production.filter((file) => file.startsWith('src/jobs/'));
    expect(violations(jobs, (imported) => /^src\/(slack\/views|outbox)\//.test(imported))).toEqual([]);
  });

  it('keeps the Slack layer off the services: it sees only the interface in src/slack/deps.ts', () => {
    const slack = production.filter((file) => file.startsWith('src/slack/'));
    expect(violations(slack, (imported) => /^src\/(services|db|llm)\//.test(imported))).toEqual([]);
    expect(violations(slack, (imported) => /^(@prisma\/|@anthropic-ai\/|exceljs)/.test(imported))).toEqual([]);
  });

  it('needs nothing from dev/ or test/ in production code', () => {
    expect(violations(production, (imported) => /^(dev|test)\//.test(imported))).toEqual([]);
  });
});
