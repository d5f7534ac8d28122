import { carrierKind } from './carrier/requirements';
import { codeSupplierKind } from './codes/requirements';
import type { EnvView, Need, ProviderKind, RealAdapter } from './kind';
import { mailKind } from './mail/requirements';
import { numberSupplyKind } from './numbers/requirements';
import { paymentKinds } from './payments/requirements';
import { sttKind } from './stt/requirements';

/**
 * Every provider kind and what it needs (issue 18 §1). Production is fail-closed: a simulator is
 * never a default there, an unset kind is refused (payment groups: not offered), and a start whose
 * configuration would run a simulator or lacks a variable is refused with one message naming all.
 * A new kind is one line here; a new adapter one entry of its kind's declaration.
 */
export const providerKinds: readonly ProviderKind[] = [
  carrierKind,
  numberSupplyKind,
  codeSupplierKind,
  mailKind,
  sttKind,
  ...paymentKinds,
];

/** The explicit opt-in of a demo deployment (simulators in production, a banner on every page). */
export const demoVariable = 'DEMO_MODE';

/** Simulators may run: any start but production, and a production start with DEMO_MODE=1. */
export const simulatorsAllowed = (env: EnvView): boolean =>
  env.NODE_ENV !== 'production' || env[demoVariable] === true;

/**
 * Fills each unset selector: with the value other variables imply (MAIL=smtp when SMTP_URL is set),
 * else with the simulator where simulators may run. In production an unset selector stays unset:
 * its kind is off (payment groups) or the start is refused (`refusal`).
 */
export function resolveSelectors<T extends Record<string, unknown>>(env: T): T {
  const out: Record<string, unknown> = { ...env };
  for (const kind of providerKinds) {
    if (out[kind.selector] !== undefined) continue;
    const value = kind.implied?.(out) ?? (simulatorsAllowed(out) ? kind.simulator : undefined);
    if (value !== undefined) out[kind.selector] = value;
  }
  return out as T;
}

const isSet = (env: EnvView, name: string) => {
  const v = env[name];
  // a pairs variable (CODE_SUPPLIER_PRICE_RATES) parses to an object: empty is unset
  if (v !== null && typeof v === 'object') return Object.keys(v).length > 0;
  return v !== undefined && v !== null && v !== '';
};

/** What is wrong with a chosen real adapter: missing variables and unmet conditions. */
function adapterGaps(env: EnvView, adapter: RealAdapter) {
  return {
    missing: adapter.needs.filter((n) => !isSet(env, n.name)),
    unmet: adapter.check?.(env) ?? [],
  };
}

/** How a kind stands in this environment. */
export type KindState =
  | { state: 'real'; adapter: RealAdapter; missing: Need[]; unmet: string[] }
  | { state: 'simulator' }
  | { state: 'off'; explicit: boolean }
  | { state: 'unset' };

export function kindState(env: EnvView, kind: ProviderKind): KindState {
  const value = env[kind.selector];
  if (value === undefined) return kind.methods ? { state: 'off', explicit: false } : { state: 'unset' };
  if (value === kind.simulator) return { state: 'simulator' };
  if (kind.off && value === kind.off.value) return { state: 'off', explicit: true };
  const adapter = kind.real.find((a) => a.value === value);
  // env.ts's enum admits only declared values; an undeclared one is a declaration missing here
  if (!adapter)
    throw new Error(`${kind.selector}=${String(value)} is not declared in its kind's requirements`);
  return { state: 'real', adapter, ...adapterGaps(env, adapter) };
}

/** The payment-method keys a real provider (or, where simulators may run, the sandbox) serves. */
export function servedMethods(env: EnvView): string[] {
  return paymentKinds.flatMap((kind) => {
    const s = kindState(env, kind);
    const serves =
      (s.state === 'real' && !s.missing.length && !s.unmet.length) ||
      (s.state === 'simulator' && simulatorsAllowed(env));
    return serves ? (kind.methods ?? []) : [];
  });
}

/**
 * The one message a production start is refused with, or null when it may start: every kind that
 * would run a simulator, is unset, or lacks a variable, with each missing variable and what it does,
 * and the ways to switch a kind off. Null outside production.
 */
export function refusal(env: EnvView): string | null {
  if (env.NODE_ENV !== 'production') return null;
  const demo = env[demoVariable] === true;
  const described = new Set<string>();
  const sections: string[][] = [];

  const needLines = (needs: readonly Need[], indent: string) =>
    needs
      .filter((n) => !isSet(env, n.name))
      .map((n) => {
        const line = `${indent}${n.name.padEnd(30)} ${described.has(n.name) ? '(see above)' : n.does}`;
        described.add(n.name);
        return line;
      });

  /** Every way to configure a kind: its real adapters with their missing variables, then off. */
  const options = (kind: ProviderKind) => {
    const lines: string[] = [];
    for (const a of kind.real) {
      lines.push(`  - ${kind.selector}=${a.value}${a.note ? ` (${a.note})` : ''}`);
      lines.push(...needLines(a.needs, '      '));
    }
    if (kind.off) lines.push(`  - ${kind.selector}=${kind.off.value}: ${kind.off.effect}`);
    return lines;
  };
  const choose = (kind: ProviderKind) =>
    !kind.off
      ? 'It cannot be switched off; set:'
      : kind.real.length
        ? 'Set one of:'
        : 'No real adapter yet; set:';

  let paymentSelected = false;
  let paymentSection = false;
  for (const kind of providerKinds) {
    const s = kindState(env, kind);
    const head = `${kind.title} (it ${kind.does}):`;
    if (s.state === 'unset') {
      sections.push([`${head} ${kind.selector} is not set. ${choose(kind)}`, ...options(kind)]);
    } else if (s.state === 'simulator') {
      if (kind.methods) paymentSelected ||= demo;
      if (demo) continue;
      if (kind.methods) paymentSection = true;
      sections.push([
        `${head} ${kind.selector}=${kind.simulator} is the built-in simulator, never used in production${
          kind.methods ? ' (it would credit top-ups that nobody paid)' : ''
        }. ${choose(kind)}`,
        ...options(kind),
      ]);
    } else if (s.state === 'real') {
      if (kind.methods) paymentSelected = true;
      if (!s.missing.length && !s.unmet.length) continue;
      if (kind.methods) paymentSection = true;
      sections.push([
        `${head} ${kind.selector}=${s.adapter.value} needs:`,
        ...needLines(s.missing, '    '),
        ...s.unmet.map((u) => `    ${u}`),
      ]);
    }
  }
  if (!paymentSelected && !paymentSection) {
    const groups = providerKinds.filter((k) => k.methods);
    sections.push([
      'Payments: no payment method has a real provider, and a method without one is not offered (top-up is how every balance fills). Set at least one:',
      ...groups.flatMap((kind) =>
        kind.real.length
          ? kind.real.flatMap((a) => [
              `  - ${kind.selector}=${a.value} (${kind.title.replace(/^Payments: /, '')})`,
              ...needLines(a.needs, '      '),
            ])
          : [
              `  - ${kind.selector}: no real provider yet (${kind.title.replace(/^Payments: /, '')} is not offered)`,
            ],
      ),
    ]);
  }
  if (!sections.length) return null;
  return [
    `Numa refuses to start: NODE_ENV=production and ${sections.length === 1 ? 'one provider is' : `${sections.length} providers are`} not set up for real use. In production no simulator or sandbox ever runs; set the variables below (or switch a provider off where it may be).`,
    '',
    ...sections.flatMap((s) => [...s, '']),
    `A demo deployment in which no real money moves may instead set ${demoVariable}=1: the simulators then run and every page shows a "Demo: no real money" banner.`,
  ].join('\n');
}

/** What runs for each kind, for the start's log line (e.g. `{ CARRIER: 'twilio', STT: 'none', … }`). */
export function providerSummary(env: EnvView): Record<string, string> {
  return Object.fromEntries(
    providerKinds.map((k) => [k.selector, env[k.selector] === undefined ? 'off' : String(env[k.selector])]),
  );
}
