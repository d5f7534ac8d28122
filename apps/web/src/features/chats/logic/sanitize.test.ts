import { describe, expect, it } from 'vitest';
import { htmlToText, messageText } from './sanitize';

describe('message html (spec 000 §5)', () => {
  it('turns emoji images into their alt text', () => {
    expect(htmlToText('Hi <img src="x.png" alt="😀" class="emoji"> there')).toBe('Hi 😀 there');
  });
  it('turns nbsp into spaces and br into newlines', () => {
    expect(htmlToText('a&nbsp;&nbsp;b<br>c<br/>d')).toBe('a  b\nc\nd');
  });
  it('starts a new line for the blocks a contenteditable makes', () => {
    expect(htmlToText('first<div>second</div><div><br></div><div>fourth</div>')).toBe(
      'first\nsecond\n\nfourth',
    );
    expect(htmlToText('<div>one</div><div>two</div>')).toBe('one\ntwo');
  });
  it('drops scripts, handlers and markup', () => {
    expect(
      htmlToText(
        '<b onclick="x()">bold</b><script>alert(1)</script><iframe src="//x"></iframe><img src=x onerror=alert(1)>',
      ),
    ).toBe('bold');
    expect(htmlToText('<a href="javascript:alert(1)">link</a>')).toBe('link');
  });
  it('keeps what looks like markup when it was typed as text', () => {
    expect(htmlToText('&lt;b&gt;not bold&lt;/b&gt; 1 &amp; 2')).toBe('<b>not bold</b> 1 & 2');
  });
  it('gives plain typed text as it is, the same as through the sanitiser', () => {
    for (const typed of ['how are you today?', '你好，明天见 😀', 'it\'s 5 > 4 "quoted"', '  spaced  ', ''])
      expect(htmlToText(typed)).toBe(typed);
    // the same text through the sanitiser (a tag or an entity elsewhere sends it that way)
    expect(htmlToText('how are you today?<br>')).toBe('how are you today?\n');
    expect(htmlToText('x &amp; y')).toBe('x & y');
    expect(htmlToText('pasted\r\nlines')).toBe('pasted\nlines');
  });
  it('gives empty text for blank boxes, so nothing is sent', () => {
    expect(messageText('&nbsp;<br><div><br></div>')).toBe('');
    expect(messageText('  hello&nbsp;')).toBe('hello');
  });
});
