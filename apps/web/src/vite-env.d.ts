/// <reference types="vite/client" />
declare const __WEB_VERSION__: string;

/** A part of a locale file (vite.config.ts `splitTexts`): `?texts=entry`, `?texts=rest`, `?texts=<key>`. */
declare module '*?texts=entry' {
  const texts: Record<string, unknown>;
  export default texts;
}
declare module '*?texts=rest' {
  const texts: Record<string, unknown>;
  export default texts;
}
declare module '*?texts=retcode' {
  const texts: { retcode: Record<string, string> };
  export default texts;
}
