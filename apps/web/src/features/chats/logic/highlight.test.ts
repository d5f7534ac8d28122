import { describe, expect, it } from 'vitest';
import { highlightParts } from './highlight';

describe('highlight action links (spec 000 §3)', () => {
  it('turns each phrase into a link to its target', () => {
    expect(
      highlightParts(
        'Please update your profile and upload your ID today.',
        'update your profile|upload your ID',
        'profile|identity',
      ),
    ).toEqual([
      { text: 'Please ' },
      { text: 'update your profile', target: 'profile' },
      { text: ' and ' },
      { text: 'upload your ID', target: 'identity' },
      { text: ' today.' },
    ]);
  });
  it('keeps the text plain without highlights, with unknown targets or phrases not in the text', () => {
    expect(highlightParts('hello', '', '')).toEqual([{ text: 'hello' }]);
    expect(highlightParts('hello world', 'world', 'elsewhere')).toEqual([{ text: 'hello world' }]);
    expect(highlightParts('hello world', 'moon', 'profile')).toEqual([{ text: 'hello world' }]);
  });
  it('orders links by position and never overlaps them', () => {
    expect(highlightParts('ID then profile', 'profile|ID|ID then', 'profile|identity|profile')).toEqual([
      { text: 'ID', target: 'identity' },
      { text: ' then ' },
      { text: 'profile', target: 'profile' },
    ]);
  });
});
