// Helpers for the builders' tests: check limits, collect the text a person would read, find buttons and inputs.
import { expect } from 'vitest';
import { blockKitViolations, type Surface } from '../../src/slack/views/limits.js';

/** Hostile cell / LLM text: pings, links, entities, markup, a code fence and control characters. */
export const HOSTILE =
  '<!channel> <!here> <@U0123ABCD> <#C0123> <https://evil.example|click me> &amp; *bold* ``` _x_ \u0000\n\tend';

export function expectNoViolations(payload: unknown, surface: Surface): void {
  expect(blockKitViolations(payload, surface)).toEqual([]);
}

/** Every string value anywhere in the payload, joined: what the tests search for words and for leaked markup. */
export function allText(payload: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) Object.values(v).forEach(walk);
  };
  walk(payload);
  return out.join('\n');
}

/** Text that Slack would display (text objects only), without ids and values. */
export function visibleText(payload: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      const rec = v as Record<string, unknown>;
      if ((rec.type === 'mrkdwn' || rec.type === 'plain_text') && typeof rec.text === 'string') out.push(rec.text);
      else Object.entries(rec).forEach(([k, x]) => (k === 'value' || k.endsWith('_id') ? undefined : walk(x)));
    }
  };
  walk(payload);
  return out.join('\n');
}

export interface FoundElement {
  blockId: string | undefined;
  type: string;
  actionId: string | undefined;
  text: string | undefined;
  value: string | undefined;
  url: string | undefined;
  style: string | undefined;
  raw: Record<string, unknown>;
}

/** Interactive elements in blocks (actions elements, section accessories, input elements). */
export function elements(payload: { blocks?: unknown }): FoundElement[] {
  const found: FoundElement[] = [];
  const blocks = Array.isArray(payload.blocks) ? payload.blocks : [];
  for (const block of blocks as Record<string, unknown>[]) {
    const list: unknown[] = [];
    if (Array.isArray(block.elements) && block.type === 'actions') list.push(...block.elements);
    if (block.accessory) list.push(block.accessory);
    if (block.element) list.push(block.element);
    for (const e of list as Record<string, unknown>[]) {
      const text = e.text as { text?: string } | undefined;
      found.push({
        blockId: block.block_id as string | undefined,
        type: String(e.type),
        actionId: e.action_id as string | undefined,
        text: text?.text,
        value: e.value as string | undefined,
        url: e.url as string | undefined,
        style: e.style as string | undefined,
        raw: e,
      });
    }
  }
  return found;
}

export function buttons(payload: { blocks?: unknown }): FoundElement[] {
  return elements(payload).filter((e) => e.type === 'button');
}

/** No unescaped control sequence from hostile input made it into the payload. */
export function expectNoInjection(payload: unknown): void {
  const text = allText(payload);
  expect(text).not.toContain('<!channel>');
  expect(text).not.toContain('<!here>');
  expect(text).not.toContain('<@U0123ABCD>');
  expect(text).not.toContain('<#C0123>');
  expect(text).not.toContain('<https://evil.example');
}
