import { describe, expect, it } from 'vitest';
import { fileIdFromText } from './negotiate.js';

describe('fileIdFromText', () => {
  it('reads the file id of a file’s link, as Slack copies it or wraps it', () => {
    expect(fileIdFromText('https://valden.slack.com/files/U0MAYA0001/F0ABCDEF12/quote.xlsx')).toBe('F0ABCDEF12');
    expect(fileIdFromText('<https://valden.slack.com/files/U0MAYA0001/F0ABCDEF12/quote.xlsx>')).toBe('F0ABCDEF12');
    expect(fileIdFromText('https://valden.slack.com/files/U0MAYA0001/F0ABCDEF12')).toBe('F0ABCDEF12');
  });

  it('takes a bare file id, and nothing else', () => {
    expect(fileIdFromText('F0ABCDEF12')).toBe('F0ABCDEF12');
    expect(fileIdFromText('the blue one')).toBeNull();
    expect(fileIdFromText('https://valden.slack.com/archives/C0SOURCING/p1767225600000100')).toBeNull();
    expect(fileIdFromText('Fabric')).toBeNull();
  });
});
