/** A new message id (the contract's smsId: up to 64 letters, digits, '_', '.', ':' or '-'). */
export function newSmsId(): string {
  const random =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID().replace(/-/g, '')
      : Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  return `w${Date.now().toString(36)}${random.slice(0, 20)}`;
}

/** Splits a chat key into own full number and other party (neither holds '-'). */
export const splitKey = (key: string) => {
  const at = key.indexOf('-');
  return { own: key.slice(0, at), other: key.slice(at + 1) };
};
