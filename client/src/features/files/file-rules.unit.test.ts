import { describe, expect, it } from 'vitest';
import { fileProblem, formatBytes } from './file-rules';

describe('knowledge file checks', () => {
  it('accepts the document types and refuses others on selection', () => {
    for (const name of ['a.pdf', 'b.DOCX', 'c.txt', 'd.csv', 'e.md'])
      expect(fileProblem({ name, size: 10 })).toBeNull();
    expect(fileProblem({ name: 'photo.png', size: 10 })).toBe('badType');
    expect(fileProblem({ name: 'noextension', size: 10 })).toBe('badType');
  });

  it('refuses files over 20 MB', () => {
    expect(fileProblem({ name: 'big.pdf', size: 20 * 1024 * 1024 + 1 })).toBe('tooLarge');
  });

  it('shows sizes in B, KB, MB and GB', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB');
  });
});
