/**
 * The arrival signals (spec 000 §4): a short two-note chime made with the Web Audio API (no sound file
 * to ship) and a desktop notification. Both only while the window is blurred; the caller decides.
 */
let audio: AudioContext | null = null;

export function playChime() {
  try {
    const Ctx =
      window.AudioContext ??
      (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    audio ??= new Ctx();
    const ctx = audio;
    if (ctx.state === 'suspended') void ctx.resume().catch(() => {});
    const start = ctx.currentTime + 0.01;
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.18, start + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.42);
    [880, 1318.5].forEach((freq, i) => {
      const osc = ctx.createOscillator();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(freq, start + i * 0.12);
      osc.connect(gain);
      osc.start(start + i * 0.12);
      osc.stop(start + 0.45);
    });
  } catch {
    /* no sound on this browser */
  }
}

let asked = false;

/**
 * Asks for the permission to show desktop notifications. Decided: asked the first time the user sends
 * a message (a gesture, and a moment the user sees why), never on page load, and once per page: a
 * prompt the user closed without answering is not put up again with every send (browsers block a
 * site's prompts after a few dismissals), and the ask is not on the path of the next text.
 */
export function askNotificationPermission() {
  if (asked || typeof Notification === 'undefined' || Notification.permission !== 'default') return;
  asked = true;
  void Notification.requestPermission().catch(() => {});
}

export function showDesktopNotification(title: string, body: string, tag: string, onClick: () => void) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    const n = new Notification(title, { body, tag, icon: '/favicon.svg' });
    n.onclick = () => {
      window.focus();
      onClick();
      n.close();
    };
  } catch {
    /* some browsers only allow notifications from a service worker */
  }
}
