import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES, loadEnv } from './env.js';

const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
const lines = example.split('\n');

describe('.env.example', () => {
  const entries = lines.flatMap((line, index) => {
    const match = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    return match ? [{ name: match[1] ?? '', value: match[2] ?? '', comment: lines[index - 1] ?? '' }] : [];
  });

  it('lists exactly the variables env.ts reads, each with a one-line comment above it', () => {
    expect(entries.map((entry) => entry.name).sort()).toEqual([...ENV_VARIABLES].sort());
    for (const entry of entries) expect(entry.comment, entry.name).toMatch(/^# \S/);
  });

  it('is itself a valid environment', () => {
    expect(() => loadEnv(Object.fromEntries(entries.map((entry) => [entry.name, entry.value])))).not.toThrow();
  });
});
