import { constants } from '@numa/contract';

/** One of the 7 avatar colours, by the last 4 digits modulo 7 (spec 000 §9). */
export function avatarColour(number: string): number {
  const digits = number.replace(/\D/g, '').slice(-4);
  return digits ? Number(digits) % constants.avatarColours : 0;
}

/** A round initial: the name's first letter, or '#' for a number. */
export function Avatar({ name, number, size = 40 }: { name: string | null; number: string; size?: number }) {
  const initial = name?.trim() ? Array.from(name.trim())[0]!.toUpperCase() : '#';
  return (
    <span
      className={`chat-avatar c${avatarColour(number)}`}
      style={{ width: size, height: size, fontSize: size * 0.42 }}
      aria-hidden="true"
    >
      {initial}
    </span>
  );
}
