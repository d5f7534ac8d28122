import { constants } from '@numa/contract';

export type HighlightTarget = (typeof constants.highlightTargets)[number];
export interface TextPart {
  text: string;
  /** Set when the phrase is an action link. */
  target?: HighlightTarget;
}

const isTarget = (t: string): t is HighlightTarget =>
  (constants.highlightTargets as readonly string[]).includes(t);

/**
 * Splits a message's text into plain parts and action links (spec 000 §3): phrase i of `highlightText`
 * links to target i of `highlightTarget` (lists joined by the contract's separator). Each phrase links
 * where it first occurs; unknown targets and phrases not in the text stay plain.
 */
export function highlightParts(text: string, highlightText: string, highlightTarget: string): TextPart[] {
  if (!highlightText || !highlightTarget) return text ? [{ text }] : [];
  const phrases = highlightText.split(constants.highlightSeparator);
  const targets = highlightTarget.split(constants.highlightSeparator);
  const found: { start: number; end: number; target: HighlightTarget }[] = [];
  phrases.forEach((phrase, i) => {
    const target = targets[i]?.trim() ?? '';
    if (!phrase || !isTarget(target)) return;
    let from = 0;
    for (;;) {
      const start = text.indexOf(phrase, from);
      if (start < 0) return;
      const end = start + phrase.length;
      if (!found.some((f) => start < f.end && end > f.start)) {
        found.push({ start, end, target });
        return;
      }
      from = start + 1;
    }
  });
  found.sort((a, b) => a.start - b.start);
  const parts: TextPart[] = [];
  let at = 0;
  for (const f of found) {
    if (f.start > at) parts.push({ text: text.slice(at, f.start) });
    parts.push({ text: text.slice(f.start, f.end), target: f.target });
    at = f.end;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}
