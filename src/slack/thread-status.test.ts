import { describe, expect, it } from 'vitest';
import { threadStatusText } from './thread-status.js';

describe('threadStatusText', () => {
  it('words each activity after the app name, and clears with an empty status', () => {
    expect(threadStatusText({ kind: 'supplier_reply', supplierName: 'RapidGear Co' })).toBe(
      "is waiting for RapidGear Co's reply…",
    );
    expect(threadStatusText({ kind: 'decision' })).toMatch(/^is scoring the offers/);
    expect(threadStatusText(null)).toBe('');
  });

  it('shows a supplier name from the file as data: escaped, on one line, cut short', () => {
    const text = threadStatusText({ kind: 'synthesize', supplierName: `<!channel>\nAcme ${'x'.repeat(200)}` });
    expect(text).toContain('&lt;!channel&gt; Acme');
    expect(text).not.toContain('\n');
    expect(text.length).toBeLessThan(90);
  });
});
