import { isIP } from 'node:net';

/**
 * Whether an address is on the loopback interface: 127.0.0.0/8, ::1, or 127.x mapped into IPv6.
 * Give it the socket's own remote address, never a forwarded header.
 */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice(7) : a;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** Whether a listening HOST only takes connections from this machine (`localhost`, 127.x, ::1). */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || isLoopbackAddress(h);
}
