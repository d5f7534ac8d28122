import { createHash } from 'node:crypto';
import { parsePhone } from '@numa/contract';
import { caAreaCodes, mobileRanges, tollFreeCodes, usAreaCodes } from './areaCodes';
import type { NumberQuery, NumberSupplyPort, SupplyNumber } from './port';

/** How many numbers the simulator holds per area code (or per GB / AU region). */
export const simulatorInventoryPerArea = 12;

const allUs = new Set(Object.values(usAreaCodes).flat());
const allCa = new Set(Object.values(caAreaCodes).flat());

/**
 * The built-in number supply: a stable inventory per area code (real NANP area codes by state and
 * province, toll-free codes, GB and AU mobile ranges), each number valid for libphonenumber with the
 * right country and type. The same area always holds the same numbers, so a number shown on step 1 is
 * still offered at subscribe; the platform removes the ones it already holds. Acquire and release
 * keep a record, like a provider's account would.
 */
export class SimulatedNumberSupply implements NumberSupplyPort {
  readonly name = 'simulator';
  readonly acquired = new Set<string>();

  search(q: NumberQuery, limit: number): Promise<SupplyNumber[]> {
    return Promise.resolve(this.inventory(q).slice(0, limit));
  }

  offers(q: NumberQuery, full: string): Promise<boolean> {
    return Promise.resolve(this.inventory(q).some((n) => n.full === full));
  }

  acquire(n: SupplyNumber): Promise<void> {
    this.acquired.add(n.full);
    return Promise.resolve();
  }

  release(n: SupplyNumber): Promise<void> {
    this.acquired.delete(n.full);
    return Promise.resolve();
  }

  /** The area's numbers, in a stable order ([] for an area the supply does not serve). */
  inventory(q: NumberQuery): SupplyNumber[] {
    const area = q.areaCode ?? '';
    let telCode: string;
    let country: string;
    let wantType: 'FIXED_LINE_OR_MOBILE' | 'MOBILE' | 'TOLL_FREE';
    let make: (r: () => number) => string;
    const nanp = (r: () => number) => {
      // exchange 2XX–9XX, not N11 and not 555 (reserved for fiction and directory)
      let ex: string;
      do ex = String(200 + Math.floor(r() * 800));
      while (ex[1] === '1' && ex[2] === '1');
      if (ex === '555') ex = '556';
      return area + ex + String(Math.floor(r() * 10_000)).padStart(4, '0');
    };
    if (q.code === 'US' || q.code === 'CA') {
      if (q.type !== 'local' || !(q.code === 'US' ? allUs : allCa).has(area)) return [];
      [telCode, country, wantType, make] = ['1', q.code, 'FIXED_LINE_OR_MOBILE', nanp];
    } else if (q.code === 'TollFree') {
      if (q.type !== 'tollFree' || !tollFreeCodes.includes(area)) return [];
      [telCode, country, wantType, make] = ['1', 'US', 'TOLL_FREE', nanp];
    } else {
      if (q.type !== 'mobile' || area) return [];
      const range = mobileRanges[q.code];
      [telCode, country, wantType] = [q.code === 'GB' ? '44' : '61', q.code, 'MOBILE'];
      make = (r) => {
        let s = range.prefix;
        while (s.length < range.digits) s += String(Math.floor(r() * 10));
        return s;
      };
    }
    const r = seeded(`${q.code}:${q.type}:${area}`);
    const out: SupplyNumber[] = [];
    const seen = new Set<string>();
    for (let tries = 0; out.length < simulatorInventoryPerArea && tries < 400; tries++) {
      const phone = make(r);
      const full = telCode + phone;
      if (seen.has(full)) continue;
      const p = parsePhone(full);
      if (!p?.isValid() || p.country !== country) continue;
      const type = p.getType();
      const ok =
        wantType === 'FIXED_LINE_OR_MOBILE'
          ? type === 'FIXED_LINE_OR_MOBILE' || type === 'FIXED_LINE' || type === 'MOBILE'
          : type === wantType;
      if (!ok) continue;
      seen.add(full);
      out.push({ telCode, phone, full });
    }
    return out;
  }
}

/** A deterministic generator of numbers in [0, 1) from a seed (sha256 counter mode). */
function seeded(seed: string): () => number {
  let counter = 0;
  let buf = Buffer.alloc(0);
  let pos = 0;
  return () => {
    if (pos + 4 > buf.length) {
      buf = createHash('sha256').update(`${seed}#${counter++}`).digest();
      pos = 0;
    }
    const v = buf.readUInt32BE(pos);
    pos += 4;
    return v / 2 ** 32;
  };
}
