import DOMPurify from 'dompurify';

const BLOCKS = new Set(['DIV', 'P', 'LI']);

/**
 * The text of the message box's HTML (spec 000 §5): sanitised with DOMPurify, emoji images become their
 * alt text, non-breaking spaces become spaces and line breaks become newlines. Block elements (the
 * lines a contenteditable makes) start a new line.
 */
export function htmlToText(html: string): string {
  // what was typed as plain text: no tag and no entity (the box's HTML writes `<`, `&` and a
  // non-breaking space as entities), and nothing the HTML parser rewrites (a carriage return, NUL), so
  // it is its own text. DOMPurify parses the HTML into a document each time, and the box is read at
  // every keystroke and at every send (0.5 ms on the sender's path)
  if (!/[<&\r\0]/.test(html)) return html;
  const fragment = DOMPurify.sanitize(html, {
    ALLOWED_TAGS: ['img', 'br', 'div', 'p', 'span', 'li', 'b', 'i', 'u', 'em', 'strong'],
    ALLOWED_ATTR: ['alt'],
    RETURN_DOM_FRAGMENT: true,
  });
  let out = '';
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      out += node.textContent ?? '';
      return;
    }
    if (!(node instanceof Element)) return;
    if (node.tagName === 'BR') {
      out += '\n';
      return;
    }
    if (node.tagName === 'IMG') {
      out += node.getAttribute('alt') ?? '';
      return;
    }
    const block = BLOCKS.has(node.tagName);
    if (block && out.length > 0 && !out.endsWith('\n')) out += '\n';
    node.childNodes.forEach(walk);
    if (block && node.nextSibling && !out.endsWith('\n')) out += '\n';
  };
  fragment.childNodes.forEach(walk);
  return out.replace(/\u00a0/g, ' ');
}

/** The text to send: trimmed; empty text is not sent (spec 000 §5). */
export const messageText = (html: string) => htmlToText(html).trim();
